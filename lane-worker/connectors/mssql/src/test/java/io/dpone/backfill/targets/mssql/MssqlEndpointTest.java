package io.dpone.backfill.targets.mssql;

import com.microsoft.sqlserver.jdbc.SQLServerDriver;
import org.junit.jupiter.api.Test;

import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The driver's transparent reconnect is off on every connection the adapter opens, even when a Secret's URL turns it
 * on: a reconnected session has lost its session-owned application locks and SET options. The merged value is read
 * through the driver's own property merge (SQLServerDriver.getPropertyInfo runs parseAndMergeProperties, where
 * "supplied properties have precedence" over the URL's), no server needed.
 */
class MssqlEndpointTest {
    private static String merged(String url, Properties supplied, String name) throws SQLException {
        DriverPropertyInfo[] info = new SQLServerDriver().getPropertyInfo(url, supplied);
        return Arrays.stream(info).filter(p -> p.name.equals(name)).findFirst().orElseThrow().value;
    }

    private static Properties clientProperties() {
        Properties p = new Properties();
        MssqlEndpoint.INSTANCE.clientProperties(p, "backfill-lane");
        return p;
    }

    @Test
    void theDriversDefaultIsOneTransparentReconnect() throws SQLException {
        assertThat(merged("jdbc:sqlserver://db:1433;databaseName=x", new Properties(), "connectRetryCount")).isEqualTo("1");
    }

    @Test
    void everyConnectionTurnsTheTransparentReconnectOff() throws SQLException {
        assertThat(merged("jdbc:sqlserver://db:1433;databaseName=x", clientProperties(), "connectRetryCount"))
                .isEqualTo("0");
    }

    @Test
    void aUrlThatTurnsItOnIsOverridden() throws SQLException {
        assertThat(merged("jdbc:sqlserver://db:1433;databaseName=x;connectRetryCount=5;connectRetryInterval=3",
                clientProperties(), "connectRetryCount")).isEqualTo("0");
    }
}
