package io.dpone.backfill.postgres;

import io.dpone.backfill.core.source.AnchorCheck;
import io.dpone.backfill.core.target.ColumnShape;
import io.dpone.backfill.core.target.TableShape;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** The XMin anchor and source shapes, read from a real PostgreSQL server. */
class PostgresSourceCatalogIT {
    private static String database;
    private static Connection source;
    private static PostgresSourceCatalog catalog;

    @BeforeAll
    static void connect() throws SQLException {
        database = SharedEmbeddedPostgres.freshDatabase("source");
        source = SharedEmbeddedPostgres.get().connect(database);
        catalog = new PostgresSourceCatalog(source);
    }

    @AfterAll
    static void disconnect() throws SQLException {
        source.close();
    }

    @Test
    void theCapturedAnchorIsTheCurrentSnapshotXminAndUsable() throws SQLException {
        String anchor = catalog.captureAnchor();

        assertThat(anchor).matches("[0-9]+");
        assertThat(new BigInteger(anchor)).isLessThanOrEqualTo(new BigInteger(text("SELECT pg_current_xact_id()::text")));
        assertThat(catalog.checkAnchor(anchor)).isEqualTo(AnchorCheck.ok());
    }

    @Test
    void theAnchorStaysBehindATransactionStillInProgress() throws SQLException {
        try (Connection writer = SharedEmbeddedPostgres.get().connect(database)) {
            writer.setAutoCommit(false);
            long inProgress;
            try (Statement s = writer.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_current_xact_id()::text")) {
                rs.next();
                inProgress = Long.parseLong(rs.getString(1));
            }
            text("SELECT pg_current_xact_id()::text"); // later transactions commit meanwhile

            assertThat(Long.parseLong(catalog.captureAnchor()))
                    .as("rows of the open transaction may commit after the snapshot: the anchor must not pass it")
                    .isLessThanOrEqualTo(inProgress);
            writer.rollback();
        }
    }

    @Test
    void anAnchorAheadOfTheServerIsUnusable() {
        BigInteger current = new BigInteger(catalog.captureAnchor());

        AnchorCheck check = catalog.checkAnchor(current.add(BigInteger.valueOf(1_000_000)).toString());

        assertThat(check.usable()).isFalse();
        assertThat(check.reason()).contains("ahead");
    }

    @Test
    void anAnchorTwoBillionTransactionsBehindIsUnusableAndOneLessIsStillUsable() {
        BigInteger current = BigInteger.valueOf(2_000_000_005L);

        AnchorCheck tooOld = PostgresSourceCatalog.assess("5", current);

        assertThat(tooOld.usable()).isFalse();
        assertThat(tooOld.reason()).contains("too old");
        assertThat(PostgresSourceCatalog.assess("6", current).usable()).isTrue();
        assertThat(PostgresSourceCatalog.assess("2000000005", current).usable()).isTrue();
    }

    @Test
    void somethingThatIsNotATransactionIdIsUnusable() {
        for (String bad : Arrays.asList(null, "", "abc", "-5", "12.5", "1e9", " 42", "123456789012345678901234")) {
            AnchorCheck check = catalog.checkAnchor(bad);
            assertThat(check.usable()).as(String.valueOf(bad)).isFalse();
            assertThat(check.reason()).contains("not a transaction id");
        }
    }

    @Test
    void shapeListsLiveColumnsInOrderWithTypesAndNullability() throws SQLException {
        exec("CREATE TABLE public.events (event_id bigint NOT NULL, gone text, payload varchar(40), amount numeric(12,3) NOT NULL, at timestamptz)");
        exec("ALTER TABLE public.events DROP COLUMN gone");

        TableShape shape = catalog.shape("public", "events");

        assertThat(shape.columns()).containsExactly(
                new ColumnShape("event_id", "bigint", false),
                new ColumnShape("payload", "character varying(40)", true),
                new ColumnShape("amount", "numeric(12,3)", false),
                new ColumnShape("at", "timestamp with time zone", true));
        assertThat(catalog.shape("public", "no_such_table").exists()).isFalse();
    }

    private static String text(String sql) throws SQLException {
        try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void exec(String sql) throws SQLException {
        try (Statement s = source.createStatement()) {
            s.execute(sql);
        }
    }
}
