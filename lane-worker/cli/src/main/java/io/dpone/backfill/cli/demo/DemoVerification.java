package io.dpone.backfill.cli.demo;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;

/**
 * The demo's own check, independent of the ledger: the published table holds exactly the source's keys, each once,
 * with the source's amounts. Keys and amounts are compared as an order-independent digest (a sum of per-row
 * hashes), streamed from both sides, because SQL Server orders uniqueidentifier values differently from PostgreSQL.
 */
public record DemoVerification(long sourceRows, long liveRows, long distinctKeys, long sourceDigest, long liveDigest) {
    static DemoVerification postgres(EmbeddedPostgres pg) throws Exception {
        String digest = "SELECT id::text, amount::text FROM public.orders";
        try (Connection source = pg.connect("demo_source"); Connection live = pg.connect("demo_target")) {
            return new DemoVerification(count(source, "SELECT count(*) FROM public.orders"),
                    count(live, "SELECT count(*) FROM public.orders"), count(live, "SELECT count(DISTINCT id) FROM public.orders"),
                    digest(source, digest), digest(live, digest));
        }
    }

    static DemoVerification sqlServer(EmbeddedPostgres pg, ConnectionSettings server, String schema) throws Exception {
        String table = MssqlIdentifiers.quote(schema) + ".[orders]";
        try (Connection source = pg.connect("demo_source"); Connection live = server.open("backfill-demo")) {
            return new DemoVerification(count(source, "SELECT count(*) FROM public.orders"),
                    count(live, "SELECT COUNT_BIG(*) FROM " + table), count(live, "SELECT COUNT_BIG(DISTINCT id) FROM " + table),
                    digest(source, "SELECT id::text, amount::text FROM public.orders"),
                    digest(live, "SELECT LOWER(CONVERT(nvarchar(36), id)), CONVERT(nvarchar(40), amount) FROM " + table));
        }
    }

    void report(Consumer<String> log) {
        boolean same = sourceDigest == liveDigest;
        log.accept(String.format("verified: source %,d rows, published %,d rows, %,d distinct keys, key+amount digest %s",
                sourceRows, liveRows, distinctKeys, same ? "equal" : "DIFFERENT"));
        if (sourceRows != liveRows || distinctKeys != liveRows || !same) {
            throw new IllegalStateException("the published table does not match the source");
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Sum (mod 2^64) of the first 8 bytes of SHA-256 over "key|amount" of every row: equal sets, equal sums. */
    private static long digest(Connection c, String sql) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        long sum = 0;
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.setFetchSize(10_000);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    byte[] h = sha.digest((rs.getString(1) + "|" + rs.getString(2)).getBytes(StandardCharsets.UTF_8));
                    long v = 0;
                    for (int i = 0; i < 8; i++) {
                        v = (v << 8) | (h[i] & 0xff);
                    }
                    sum += v;
                }
            }
        } finally {
            c.commit();
            c.setAutoCommit(autoCommit);
        }
        return sum;
    }
}
