package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/** Writes our settings and authentication rules into a freshly initialised data directory. */
final class ServerConfig {
    private ServerConfig() {
    }

    static void apply(Path dataDir, Map<String, String> settings) throws IOException {
        StringBuilder conf = new StringBuilder("\n# --- dpone pg-embedded (later lines win) ---\n");
        settings.forEach((name, value) -> conf.append(name).append(" = ")
                .append(Identifiers.confLiteral(value)).append('\n'));
        // Appending keeps initdb's file (and its owner) intact; the last occurrence of a setting wins.
        Files.writeString(dataDir.resolve("postgresql.conf"), conf, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        // Replaces initdb's rules: no unix-socket or IPv6 access, only trusted TCP from this host.
        String hba = "# dpone pg-embedded: trust, loopback only\n"
                + "host    all            all    127.0.0.1/32    trust\n"
                + "host    replication    all    127.0.0.1/32    trust\n";
        Files.writeString(dataDir.resolve("pg_hba.conf"), hba, StandardCharsets.UTF_8,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    }
}
