package io.dpone.backfill.cli.demo;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** The demo's sample source, reviewed target and campaign. */
public final class DemoData {
    static final String TABLE_DDL = """
            CREATE TABLE public.orders (
                id          uuid          NOT NULL PRIMARY KEY,
                customer_id bigint        NOT NULL,
                amount      numeric(12,2) NOT NULL,
                currency    text          NOT NULL,
                note        text,
                created_at  timestamptz   NOT NULL,
                active      boolean       NOT NULL,
                discount    numeric(5,2),
                attributes  jsonb,
                payload     bytea
            )""";

    private DemoData() {
    }

    static void createSource(Connection c, long rows) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(TABLE_DDL);
            // Generated server-side: realistic types, unicode text, NULLs in nullable columns.
            s.execute("INSERT INTO public.orders SELECT gen_random_uuid(), (random() * 100000)::bigint,"
                    + " round((random() * 10000)::numeric, 2), (ARRAY['EUR','USD','JPY'])[1 + (i % 3)],"
                    + " CASE WHEN i % 5 = 0 THEN NULL ELSE 'Bestellung ' || i || ' – 注文 ✓ ' || repeat('x', (i % 7)) END,"
                    + " timestamptz '2026-01-01 00:00:00+00' + (i || ' seconds')::interval, i % 2 = 0,"
                    + " CASE WHEN i % 3 = 0 THEN NULL ELSE round((random() * 50)::numeric, 2) END,"
                    + " jsonb_build_object('line', i, 'tags', jsonb_build_array('a', 'b')),"
                    + " decode(md5(i::text), 'hex') FROM generate_series(1, " + rows + ") AS i");
            s.execute("ANALYZE public.orders");
        }
    }

    static void createReviewedTarget(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(TABLE_DDL);
            s.execute("CREATE INDEX orders_customer ON public.orders (customer_id)");
            s.execute("INSERT INTO public.orders VALUES ('00000000-0000-0000-0000-000000000001', 0, 0, 'EUR', 'the old table', now(), true, NULL, NULL, NULL)");
        }
    }

    /** The reviewed SQL Server target: the reference design's clustered columnstore, a nonclustered key, one index. */
    static List<String> sqlServerTarget(String schema) {
        String table = MssqlIdentifiers.quote(schema) + ".[orders]";
        return List.of("CREATE TABLE " + table + " (id uniqueidentifier NOT NULL, customer_id bigint NOT NULL,"
                        + " amount decimal(12,2) NOT NULL, currency nvarchar(3) NOT NULL, note nvarchar(200) NULL,"
                        + " created_at datetimeoffset(6) NOT NULL, active bit NOT NULL, discount decimal(5,2) NULL,"
                        + " attributes nvarchar(max) NULL, payload varbinary(16) NULL)",
                "CREATE CLUSTERED COLUMNSTORE INDEX orders_cci ON " + table,
                "ALTER TABLE " + table + " ADD CONSTRAINT orders_pk PRIMARY KEY NONCLUSTERED (id)",
                "CREATE NONCLUSTERED INDEX orders_customer ON " + table + " (customer_id)",
                "INSERT INTO " + table + " (id, customer_id, amount, currency, note, created_at, active)"
                        + " VALUES ('00000000-0000-0000-0000-000000000001', 0, 0, N'EUR', N'the old table', SYSDATETIMEOFFSET(), 1)");
    }

    static String campaignYaml(int lanes, int buckets) {
        return campaignYaml(lanes, buckets, "postgres", "public", "backfill_state");
    }

    static String campaignYaml(int lanes, int buckets, String targetType, String targetSchema, String stateSchema) {
        return """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata:
                  name: demo-orders
                spec:
                  backfillId: demo_orders_v1
                  source:
                    connectionSecretRef: {name: demo-source}
                    table: orders
                  target:
                    type: %s
                    connectionSecretRef: {name: demo-target}
                    schema: %s
                    table: orders
                  uniqueKey: [id]
                  chunk: {column: id, kind: uuid, buckets: %d}
                  parallelWorkers: %d
                  state: {schema: %s}
                  publication: {mode: shadow_swap, artifactScope: campaign}
                """.formatted(targetType, targetSchema, buckets, lanes, stateSchema);
    }
}
