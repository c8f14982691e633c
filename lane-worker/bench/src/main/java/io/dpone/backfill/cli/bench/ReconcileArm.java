package io.dpone.backfill.cli.bench;

import io.dpone.backfill.core.plan.CampaignBlueprint;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * R, reconciliation (issue 38): the campaign of S run to its handoff (the load, timed as S is), then a pass that finds
 * nothing changed, then 1% of the rows changed in the source (half updated, a quarter deleted, as many inserted, so
 * the row count stays) and a second pass; the published table must then equal the source row for row. The source
 * keeps the changes: run R after the arms it should not disturb.
 */
final class ReconcileArm implements BenchArm {
    @Override
    public String code() {
        return "R";
    }

    @Override
    public String description() {
        return "S, then a reconciliation pass with nothing changed and one after 1% of the rows changed (issue 38)";
    }

    @Override
    public ArmRun run(ArmContext context, ArmPlace place, int repetition) throws Exception {
        if (!place.reconcilable()) {
            throw new IllegalStateException("arm R needs a PostgreSQL target: reconciliation into this target is not built yet");
        }
        place.createLiveTable();
        CampaignBlueprint blueprint = context.campaign().blueprint(place, "r" + repetition + "_r");
        ArmRun load = CampaignArm.load(this, context, place, repetition, blueprint);
        double nothing = pass(context, place, blueprint);
        long changed = change(context, repetition);
        double afterChanges = pass(context, place, blueprint);
        requireEqual(context, place);
        return load.withReconcile(new ReconcileTimes(nothing, afterChanges, changed));
    }

    private static double pass(ArmContext context, ArmPlace place, CampaignBlueprint blueprint) throws Exception {
        long started = System.nanoTime();
        int code = context.passes().reconcile(blueprint, context.source().settings(), place.settings());
        if (code != 0) {
            throw new IllegalStateException("the reconciliation pass did not catch up (exit " + code + ")");
        }
        return (System.nanoTime() - started) / 1e9;
    }

    /** Changes 1% of the rows, spread over the whole key space; returns how many rows changed. */
    private static long change(ArmContext context, int repetition) throws SQLException {
        long quarter = Math.max(1, context.rows() / 400);
        String table = "public." + BenchTable.NAME;
        String key = BenchTable.KEY;
        try (Connection c = context.source().connect(); Statement s = c.createStatement()) {
            // Rows picked by a hash of the key (1 in 128, more than each share needs): spread over every range and bucket,
            // as real changes are.
            long updated = s.executeUpdate("UPDATE " + table + " SET amount = amount + 1, status = 'changed' WHERE " + key
                    + " IN (SELECT " + key + " FROM " + table + " WHERE pg_catalog.hashtextextended(" + key + "::text, "
                    + repetition + ") & 127 = 1 LIMIT " + 2 * quarter + ")");
            long deleted = s.executeUpdate("DELETE FROM " + table + " WHERE " + key + " IN (SELECT " + key + " FROM " + table
                    + " WHERE pg_catalog.hashtextextended(" + key + "::text, " + repetition + ") & 127 = 2 LIMIT " + quarter + ")");
            // New keys above every generated one: repetitions never collide.
            long from = context.rows() * (1 + repetition) + 1;
            s.execute(context.table().generate(table, from, from + deleted - 1));
            return updated + 2 * deleted;
        }
    }

    /** The published table holds exactly the source's rows: the same count and the same sum of row hashes. */
    private static void requireEqual(ArmContext context, ArmPlace place) throws SQLException {
        String source;
        String target;
        try (Connection c = context.source().connect()) {
            source = digest(c, "public." + BenchTable.NAME);
        }
        try (Connection c = place.connect()) {
            target = digest(c, place.schema() + "." + place.table());
        }
        if (!source.equals(target)) {
            throw new IllegalStateException("after reconciliation the published table differs from the source: count/row"
                    + " digest " + target + " against the source's " + source);
        }
    }

    /** The table's row count and the exact sum of its rows' hashes, as "count/sum". */
    private static String digest(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*)::text || '/' ||"
                + " coalesce(sum(pg_catalog.hashtextextended(t::text, 0)), 0)::text FROM " + table + " t")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
