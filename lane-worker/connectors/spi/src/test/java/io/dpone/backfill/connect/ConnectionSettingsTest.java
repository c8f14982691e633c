package io.dpone.backfill.connect;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectionSettingsTest {
    /** An engine no driver on this class path serves: java.sql.DriverManager answers with the whole URL. */
    private static final DatabaseEndpoint NO_DRIVER = new DatabaseEndpoint() {
        @Override
        public String engine() {
            return "Nodriver";
        }

        @Override
        public String urlPrefix() {
            return "jdbc:nodriver:";
        }

        @Override
        public String defaultPort() {
            return "1";
        }

        @Override
        public String jdbcUrl(String host, String port, String database) {
            return "jdbc:nodriver://" + host + ":" + port + "/" + database;
        }

        @Override
        public void clientProperties(Properties properties, String applicationName) {
        }
    };

    @Test
    void aUrlForAnotherEngineIsRefusedWithoutThePasswordOfItsAuthority() {
        // As an environment URL written for the wrong driver reaches it (BACKFILL_SOURCE_JDBC_URL).
        assertThatThrownBy(() -> new ConnectionSettings("jdbc:postgres://loader:Cs1-Pa55-XYZ@db.example/app?password=Cs1-Other",
                null, null, NO_DRIVER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jdbc:nodriver:").hasMessageContaining("loader:***@db.example")
                .hasMessageNotContaining("Cs1-Pa55-XYZ").hasMessageNotContaining("Cs1-Other");
    }

    @Test
    void aDriversMessageQuotingTheUrlReachesTheCallerWithoutItsCredentials() {
        // DriverManager.getConnection: "No suitable driver found for " + url
        ConnectionSettings settings = new ConnectionSettings("jdbc:nodriver://loader:Cs2-Pa55-XYZ@h/app?user=loader&password=Cs2-Query%zz",
                "loader", "Cs2-Property", NO_DRIVER);

        assertThatThrownBy(() -> settings.open("test")).isInstanceOf(SQLException.class)
                .hasMessageContaining("No suitable driver").hasMessageContaining("user=loader")
                .hasMessageNotContaining("Cs2-Pa55-XYZ").hasMessageNotContaining("Cs2-Query").hasMessageNotContaining("Cs2-Property");
    }

    @Test
    void theRedactedUrlAndToStringNameTheServerAndTheUserButNoPassword() {
        ConnectionSettings settings = new ConnectionSettings("jdbc:nodriver://loader:Cs3-Pa55-XYZ@h:5432/app?password=x",
                "loader", "Cs3-Property", NO_DRIVER);

        assertThat(settings.redacted()).isEqualTo("jdbc:nodriver://loader:***@h:5432/app?...");
        assertThat(settings.toString()).contains("h:5432/app").contains("user=loader").doesNotContain("Cs3");
    }
}
