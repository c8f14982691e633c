package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code backfill verify} on the SQL Server route (ADR 0018): the receipts' digests, computed by the lanes from the
 * decoded values they bulk copied, equal the digests of the published T-SQL table read back over JDBC, chunk by
 * chunk; an update of one published row is named by its chunk. Runs on the resolved T-SQL engine (SQL Server when
 * configured, Babelfish when BACKFILL_BABELFISH_DIST is set, else skipped by SqlServerTestEngine); on Babelfish the
 * route's table leaves out the temporal and binary columns (see SqlServerRoute), so their digests are proven on
 * SQL Server only. The run itself passed the read-back gate before publication (ADR 0036) on the same digests.
 */
class SqlServerVerifyIT {
    @TempDir
    Path dir;

    @Test
    void verifyFindsThePublishedTableEqualAndNamesTheChunkOfAnUpdatedRow() throws Exception {
        SqlServerRoute route = new SqlServerRoute(dir, "orders_verify_v1", 3000, 8, 2, 10);
        System.out.println("SqlServerVerifyIT runs on " + route.engine);
        route.cli(0, route.runArgs("run"));
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.chunk_receipt WHERE content_digest IS NOT NULL")).isEqualTo(8);

        // The read-back gate compared the shadow with the receipts before the swap (ADR 0036), on this engine.
        assertThat(route.cli(0, route.withCampaign("status"))).contains("content check content (matches)");
        String clean = route.cli(0, route.withCampaign("verify"));
        assertThat(clean).contains("8 chunks (key range): 8 equal, 0 differ").contains("result: passed");

        try (Connection c = route.engine.connect(route.database); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE dbo.orders SET title = title + N'!' WHERE id = 2222");
        }
        int chunk = route.blueprint.plan().locate(BigInteger.valueOf(2222)).id();
        String tampered = route.cli(7, route.withCampaign("verify"));
        assertThat(tampered).contains("7 equal, 1 differ").contains("chunk " + chunk + " [")
                .contains("same keys, different values");
        assertThat(route.cli(0, route.withCampaign("status"))).contains("verification: differences");
    }
}
