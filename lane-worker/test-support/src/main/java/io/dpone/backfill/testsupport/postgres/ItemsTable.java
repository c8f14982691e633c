package io.dpone.backfill.testsupport.postgres;

import java.sql.SQLException;
import java.util.List;

/**
 * The {@code public.items} table most campaign suites copy: {@code (id uuid primary key, qty integer, note text)},
 * generated rows on the source, one old row on the target (the live table a backfill replaces), and the digests
 * that compare the two.
 */
public final class ItemsTable {
    public static final String CREATE = "CREATE TABLE public.items (id uuid NOT NULL PRIMARY KEY, qty integer NOT NULL, note text)";
    /** The one row of the target's live table before a campaign publishes. */
    public static final String OLD_ROW_ID = "00000000-0000-0000-0000-000000000001";

    private ItemsTable() {
    }

    /** The source side: the table with {@code rows} rows ({@code qty} 1..rows, {@code note} "row i", random ids). */
    public static void createWithRows(PostgresDatabase source, int rows) throws SQLException {
        source.execute(CREATE,
                "INSERT INTO public.items SELECT gen_random_uuid(), i, 'row ' || i FROM generate_series(1, " + rows + ") i");
    }

    /** The target side: the live table as it was before the backfill, one row that a publish must replace. */
    public static void createWithOldRow(PostgresDatabase target) throws SQLException {
        target.execute(CREATE, "INSERT INTO public.items VALUES ('" + OLD_ROW_ID + "', -1, 'the old table')");
    }

    /**
     * (id, qty, note) of every row of {@code public.items}, sorted by id: two databases hold the same table, values
     * included, exactly when these lists are equal. A NULL note reads as {@code NULL}, an empty one as {@code ''}.
     */
    public static List<String> rows(PostgresDatabase db) throws SQLException {
        return db.queryForStrings("SELECT id::text || '|' || qty || '|' || quote_nullable(note) FROM public.items ORDER BY id");
    }

    /** The keys of {@code public.items} as text, sorted, for tables of any other shape that share the {@code id} key. */
    public static List<String> keys(PostgresDatabase db) throws SQLException {
        return db.queryForStrings("SELECT id::text FROM public.items ORDER BY id");
    }
}
