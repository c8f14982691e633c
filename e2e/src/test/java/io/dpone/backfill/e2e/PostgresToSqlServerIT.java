package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The route the product exists for, run as a user runs it: `backfill run` of a PostgreSQL to SQL Server campaign
 * with lanes as processes, to HandoffCommitted; then the published table equals the source value for value. The
 * T-SQL engine is the resolved one (SQL Server when configured, else Babelfish here); the test prints which.
 */
class PostgresToSqlServerIT {
    private static final int ROWS = 20_000;

    @TempDir
    Path dir;

    @Test
    void runLoadsEveryRowExactlyOnceValueForValueAndHandsOff() throws Exception {
        SqlServerRoute route = new SqlServerRoute(dir, "orders_initial_v1", ROWS, 16, 3, 10);
        System.out.println("PostgresToSqlServerIT runs on " + route.engine);
        long started = System.nanoTime();
        String output;
        try (LaunchedProcess p = LaunchedProcess.start(dir, route.env(), route.runArgs("run"))) {
            int code = p.awaitExit(Duration.ofMinutes(5));
            output = p.output();
            assertThat(code).as(output).isZero();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("PostgresToSqlServerIT: %d rows in %.1f s end to end (%.0f rows/s) on %s%n", ROWS, seconds,
                ROWS / seconds, route.engine.kind());
        assertThat(output).contains("HandoffCommitted");
        route.assertPublishedExactlyTheSource();
    }
}
