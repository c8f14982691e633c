package io.dpone.backfill.cli.bench;

import io.dpone.backfill.core.campaign.ChunkKind;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The benchmark's table: 20 columns of the types real order tables carry (about 255 bytes a row in PostgreSQL),
 * keyed by a random UUID (for {@code uuid} and {@code physical} chunks), or by a bigint for {@code integer} chunks. Rows are generated server-side from
 * {@code generate_series} so generation costs no client round trips.
 */
final class BenchTable {
    static final String NAME = "orders";
    static final String KEY = "id";

    private final ChunkKind kind;
    private final List<BenchColumn> columns;

    BenchTable(ChunkKind kind) {
        this.kind = kind;
        BenchColumn key = kind == ChunkKind.INTEGER
                ? new BenchColumn(KEY, "bigint", "bigint", false, "i")
                : new BenchColumn(KEY, "uuid", "uniqueidentifier", false, "gen_random_uuid()");
        this.columns = List.of(key,
                new BenchColumn("customer_id", "bigint", "bigint", false, "(random() * 1000000)::bigint"),
                new BenchColumn("order_no", "bigint", "bigint", false, "i * 7"),
                new BenchColumn("amount", "numeric(12,2)", "decimal(12,2)", false, "round((random() * 10000)::numeric, 2)"),
                new BenchColumn("tax", "numeric(10,2)", "decimal(10,2)", false, "round((random() * 1000)::numeric, 2)"),
                new BenchColumn("discount", "numeric(5,2)", "decimal(5,2)", true,
                        "CASE WHEN i % 3 = 0 THEN NULL ELSE round((random() * 50)::numeric, 2) END"),
                new BenchColumn("quantity", "integer", "int", false, "1 + (i % 50)"),
                new BenchColumn("weight", "double precision", "float", false, "random() * 30"),
                new BenchColumn("currency", "text", "nvarchar(3)", false, "(ARRAY['EUR','USD','JPY'])[1 + (i % 3)]"),
                new BenchColumn("status", "text", "nvarchar(16)", false,
                        "(ARRAY['placed','paid','shipped','delivered','returned'])[1 + (i % 5)]"),
                new BenchColumn("channel", "text", "nvarchar(16)", false, "(ARRAY['web','app','store','phone'])[1 + (i % 4)]"),
                new BenchColumn("note", "text", "nvarchar(200)", true,
                        "CASE WHEN i % 5 = 0 THEN NULL ELSE 'Bestellung ' || i || ' – 注文 ✓ ' || repeat('x', i % 7) END"),
                new BenchColumn("sku", "text", "nvarchar(32)", false, "'SKU-' || lpad((i % 100000)::text, 6, '0')"),
                new BenchColumn("region", "text", "nvarchar(16)", false, "(ARRAY['emea','amer','apac'])[1 + (i % 3)]"),
                new BenchColumn("created_at", "timestamptz", "datetimeoffset(6)", false,
                        "timestamptz '2026-01-01 00:00:00+00' + (i || ' seconds')::interval"),
                new BenchColumn("updated_at", "timestamptz", "datetimeoffset(6)", true,
                        "CASE WHEN i % 4 = 0 THEN NULL ELSE timestamptz '2026-02-01 00:00:00+00' + (i || ' seconds')::interval END"),
                new BenchColumn("ship_date", "date", "date", true, "CASE WHEN i % 6 = 0 THEN NULL ELSE date '2026-01-01' + (i % 400) END"),
                new BenchColumn("active", "boolean", "bit", false, "i % 2 = 0"),
                new BenchColumn("attributes", "jsonb", "nvarchar(max)", true,
                        "CASE WHEN i % 7 = 0 THEN NULL ELSE jsonb_build_object('line', i % 10, 'gift', i % 2 = 0) END"),
                new BenchColumn("payload", "bytea", "varbinary(64)", true, "CASE WHEN i % 9 = 0 THEN NULL ELSE decode(md5(i::text), 'hex') END"));
    }

    ChunkKind kind() {
        return kind;
    }

    List<String> columnNames() {
        return columns.stream().map(BenchColumn::name).toList();
    }

    /** The table without any index: how the source and the floor arms' targets start. */
    String postgresDdl(String qualifiedName) {
        return "CREATE TABLE " + qualifiedName + " (" + columns.stream()
                .map(c -> c.name() + " " + c.postgresType() + (c.nullable() ? "" : " NOT NULL"))
                .collect(Collectors.joining(", ")) + ")";
    }

    String sqlServerDdl(String qualifiedName) {
        return "CREATE TABLE " + qualifiedName + " (" + columns.stream()
                .map(c -> "[" + c.name() + "] " + c.sqlServerType() + (c.nullable() ? " NULL" : " NOT NULL"))
                .collect(Collectors.joining(", ")) + ")";
    }

    /** The INSERT that generates rows {@code from..to} (1-based, inclusive) of the source. */
    String generate(String qualifiedName, long from, long to) {
        return "INSERT INTO " + qualifiedName + " SELECT " + columns.stream().map(BenchColumn::generator)
                .collect(Collectors.joining(", ")) + " FROM generate_series(" + from + ", " + to + ") AS i";
    }
}
