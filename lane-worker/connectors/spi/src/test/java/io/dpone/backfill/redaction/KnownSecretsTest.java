package io.dpone.backfill.redaction;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values the process holds are masked where no pattern can see them. Each test remembers values of its own: the
 * registry is the process's, shared by every test in this JVM.
 */
class KnownSecretsTest {
    @Test
    void aRememberedPasswordIsMaskedWhereADriverEchoesItWithoutItsKey() {
        KnownSecrets.remember("Kn1-Pa55-XYZ");

        // pgjdbc 42.7.10 PGPropertyUtil.convertPgPortToInt logs this (WARNING, java.util.logging) for a URL
        // jdbc:postgresql://loader:Kn1-Pa55-XYZ@127.0.0.1/db: the authority split at its last ':' leaves the password
        // and the host as the "port".
        assertThat(CredentialScrubber.scrub("WARNING: JDBC URL invalid port number: Kn1-Pa55-XYZ@127.0.0.1"))
                .isEqualTo("WARNING: JDBC URL invalid port number: ***@127.0.0.1");
    }

    @Test
    void aRememberedPasswordIsMaskedUrlEncodedUrlDecodedAndJsonEscaped() {
        KnownSecrets.remember("Kn2 p@ss\"w%41rd");

        assertThat(CredentialScrubber.scrub("a Kn2+p%40ss%22w%2541rd b")).isEqualTo("a *** b");
        assertThat(CredentialScrubber.scrub("a Kn2%20p%40ss%22w%2541rd b")).isEqualTo("a *** b");
        assertThat(CredentialScrubber.scrub("a Kn2 p@ss\"wArd b")).isEqualTo("a *** b");
        assertThat(CredentialScrubber.scrub("{\"message\":\"a Kn2 p@ss\\\"w%41rd b\"}")).isEqualTo("{\"message\":\"a *** b\"}");
    }

    @Test
    void aPasswordThatIsNotValidUrlEncodingIsStillRememberedAsItIs() {
        KnownSecrets.remember("Kn3-Pa55-XYZ%zz");

        assertThat(CredentialScrubber.scrub("seen: Kn3-Pa55-XYZ%zz and Kn3-Pa55-XYZ%25zz")).isEqualTo("seen: *** and ***");
    }

    @Test
    void everyReadingOfACredentialInAUrlIsRememberedWhateverTheDriverEndsItWith() {
        // pgjdbc ends a value at '&' only, so its password may hold ';'; mssql-jdbc ends it at ';' unless braced.
        KnownSecrets.rememberCredentialsIn("jdbc:postgresql://h/db?password=Kn4;semi&user=u");
        KnownSecrets.rememberCredentialsIn("jdbc:sqlserver://h;user=u;password={Kn5;br}}ace};encrypt=true");
        KnownSecrets.rememberCredentialsIn("jdbc:postgresql://loader:Kn6%2Dauth@h/db");

        assertThat(CredentialScrubber.scrub("x Kn4;semi y")).isEqualTo("x *** y");
        assertThat(CredentialScrubber.scrub("x Kn5;br}ace y")).isEqualTo("x *** y");
        assertThat(CredentialScrubber.scrub("x Kn6-auth y")).as("URL-decoded").isEqualTo("x *** y");
    }

    @Test
    void aValueShorterThanFourCharactersIsNotMaskedWhereItStandsAlone() {
        KnownSecrets.remember("k7z");

        assertThat(CredentialScrubber.scrub("k7z lanes")).isEqualTo("k7z lanes");
        assertThat(CredentialScrubber.scrub("jdbc:postgresql://h/db?password=k7z")).isEqualTo("jdbc:postgresql://h/db?password=***");
    }
}
