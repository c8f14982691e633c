package io.dpone.backfill.testsupport.schema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small shop written twice (issue 36), for the whole-schema suites into SQL Server: in snake_case on PostgreSQL and
 * as a SQL Server author writes it (PascalCase, NVARCHAR, DATETIME2, DECIMAL, named keys). Foreign keys both ways (a
 * supplier's preferred product, products by supplier), a self-reference (a product replaced by another), a composite
 * key (stock per warehouse and product) and a composite foreign key onto it (sales): seven keys on the target.
 * {@code temporal = false} leaves out the sale's timestamp on both sides, for an engine whose bulk copy corrupts
 * temporal values (Babelfish).
 */
public final class ShopSchema {
    /** The tables by source name: source columns, target table, target columns, in the same order. */
    public static final Map<String, String[]> TABLES = new LinkedHashMap<>();
    /** name|referencing->referenced of the seven target keys. */
    public static final List<String> TARGET_KEYS = List.of("FK_Product_ReplacedBy|Product->Product",
            "FK_Product_Supplier|Product->Supplier", "FK_Sale_Stock|Sale->Stock", "FK_Stock_Product|Stock->Product",
            "FK_Stock_Warehouse|Stock->Warehouse", "FK_Supplier_PreferredProduct|Supplier->Product",
            "FK_Warehouse_Region|Warehouse->Region");

    static {
        TABLES.put("region", new String[] {"region_id, name", "Region", "RegionId, Name"});
        TABLES.put("supplier", new String[] {"supplier_id, name, preferred_product_id", "Supplier",
                "SupplierId, Name, PreferredProductId"});
        TABLES.put("product", new String[] {"product_id, supplier_id, name, list_price, replaced_by", "Product",
                "ProductId, SupplierId, Name, ListPrice, ReplacedBy"});
        TABLES.put("warehouse", new String[] {"warehouse_id, region_id, name", "Warehouse", "WarehouseId, RegionId, Name"});
        TABLES.put("stock", new String[] {"warehouse_id, product_id, quantity", "Stock", "WarehouseId, ProductId, Quantity"});
        TABLES.put("sale", new String[] {"sale_id, warehouse_id, product_id, amount, note", "Sale",
                "SaleId, WarehouseId, ProductId, Amount, Note"});
    }

    private ShopSchema() {
    }

    /** PostgreSQL DDL and rows (about 13,000 in all). */
    public static String[] source(boolean temporal) {
        return new String[] {
                "CREATE TABLE public.region (region_id integer PRIMARY KEY, name varchar(60) NOT NULL)",
                "CREATE TABLE public.supplier (supplier_id integer PRIMARY KEY, name varchar(80) NOT NULL,"
                        + " preferred_product_id integer)",
                "CREATE TABLE public.product (product_id integer PRIMARY KEY, supplier_id integer NOT NULL REFERENCES public.supplier,"
                        + " name varchar(120) NOT NULL, list_price numeric(12,2) NOT NULL, replaced_by integer REFERENCES public.product)",
                "ALTER TABLE public.supplier ADD FOREIGN KEY (preferred_product_id) REFERENCES public.product",
                "CREATE TABLE public.warehouse (warehouse_id integer PRIMARY KEY, region_id integer NOT NULL REFERENCES public.region,"
                        + " name varchar(60) NOT NULL)",
                "CREATE TABLE public.stock (warehouse_id integer REFERENCES public.warehouse, product_id integer REFERENCES public.product,"
                        + " quantity integer NOT NULL, PRIMARY KEY (warehouse_id, product_id))",
                "CREATE TABLE public.sale (sale_id bigint PRIMARY KEY, warehouse_id integer NOT NULL, product_id integer NOT NULL,"
                        + (temporal ? " sold_at timestamp NOT NULL," : "") + " amount numeric(12,2) NOT NULL, note text,"
                        + " FOREIGN KEY (warehouse_id, product_id) REFERENCES public.stock)",
                "INSERT INTO public.region SELECT i, 'Region ' || i FROM generate_series(1, 6) i",
                "INSERT INTO public.supplier SELECT i, 'Supplier ' || i || ' – Größe ✓', NULL FROM generate_series(1, 40) i",
                "INSERT INTO public.product SELECT i, 1 + i % 40, 'Product ' || i || CASE WHEN i % 9 = 0 THEN ' 🚀' ELSE '' END,"
                        + " round((i * 3.17) % 900, 2), CASE WHEN i % 10 = 0 THEN i - 1 END FROM generate_series(1, 1200) i",
                "UPDATE public.supplier SET preferred_product_id = 1 + (supplier_id * 29) % 1200 WHERE supplier_id % 4 <> 0",
                "INSERT INTO public.warehouse SELECT i, 1 + i % 6, 'Warehouse ' || i FROM generate_series(1, 12) i",
                "INSERT INTO public.stock SELECT w, p, (w * p) % 50 FROM generate_series(1, 12) w, generate_series(1, 1200) p"
                        + " WHERE (w + p) % 3 = 0",
                "INSERT INTO public.sale SELECT i, w, p, " + (temporal ? "timestamp '2024-01-01' + i * interval '7 minutes 13.123456 seconds', " : "")
                        + "round((i * 1.37) % 500, 2), CASE WHEN i % 4 = 0 THEN NULL ELSE 'note ' || i || ' ü' END"
                        + " FROM (SELECT i, 1 + i % 12 AS w, 1 + (i * 7) % 1200 AS p FROM generate_series(1, 9000) i) s"
                        + " WHERE (w + p) % 3 = 0",
                "ANALYZE"};
    }

    /** T-SQL DDL of the reviewed target, empty, in schema dbo. */
    public static String[] target(boolean temporal) {
        return new String[] {
                "CREATE TABLE dbo.Region (RegionId int NOT NULL CONSTRAINT PK_Region PRIMARY KEY, Name nvarchar(60) NOT NULL)",
                "CREATE TABLE dbo.Supplier (SupplierId int NOT NULL CONSTRAINT PK_Supplier PRIMARY KEY,"
                        + " Name nvarchar(80) NOT NULL, PreferredProductId int NULL)",
                "CREATE TABLE dbo.Product (ProductId int NOT NULL CONSTRAINT PK_Product PRIMARY KEY,"
                        + " SupplierId int NOT NULL CONSTRAINT FK_Product_Supplier REFERENCES dbo.Supplier (SupplierId),"
                        + " Name nvarchar(120) NOT NULL, ListPrice decimal(12,2) NOT NULL,"
                        + " ReplacedBy int NULL CONSTRAINT FK_Product_ReplacedBy REFERENCES dbo.Product (ProductId))",
                "ALTER TABLE dbo.Supplier ADD CONSTRAINT FK_Supplier_PreferredProduct FOREIGN KEY (PreferredProductId)"
                        + " REFERENCES dbo.Product (ProductId)",
                "CREATE TABLE dbo.Warehouse (WarehouseId int NOT NULL CONSTRAINT PK_Warehouse PRIMARY KEY,"
                        + " RegionId int NOT NULL CONSTRAINT FK_Warehouse_Region REFERENCES dbo.Region (RegionId),"
                        + " Name nvarchar(60) NOT NULL)",
                "CREATE TABLE dbo.Stock (WarehouseId int NOT NULL CONSTRAINT FK_Stock_Warehouse REFERENCES dbo.Warehouse (WarehouseId),"
                        + " ProductId int NOT NULL CONSTRAINT FK_Stock_Product REFERENCES dbo.Product (ProductId),"
                        + " Quantity int NOT NULL, CONSTRAINT PK_Stock PRIMARY KEY (WarehouseId, ProductId))",
                "CREATE TABLE dbo.Sale (SaleId bigint NOT NULL CONSTRAINT PK_Sale PRIMARY KEY, WarehouseId int NOT NULL,"
                        + " ProductId int NOT NULL" + (temporal ? ", SoldAt datetime2(6) NOT NULL" : "")
                        + ", Amount decimal(12,2) NOT NULL, Note nvarchar(200) NULL,"
                        + " CONSTRAINT FK_Sale_Stock FOREIGN KEY (WarehouseId, ProductId) REFERENCES dbo.Stock (WarehouseId, ProductId))"};
    }

    /** Each source table's rows as text, column by column (PostgreSQL). */
    public static String sourceRows(String table) {
        String columns = TABLES.get(table)[0];
        return "SELECT concat_ws('|', " + columns + ") FROM public." + table + " ORDER BY " + columns;
    }

    /** The same rows of its target table, in the same form (T-SQL: CONCAT_WS skips NULLs as concat_ws does). */
    public static String targetRows(String table) {
        String[] t = TABLES.get(table);
        return "SELECT CONCAT_WS(N'|', " + t[2] + ") FROM dbo." + t[1] + " ORDER BY " + t[2];
    }

    /** name|referencing->referenced|trusted of every key whose two ends are live tables of the shop (never a backup). */
    public static final String LIVE_KEYS = "SELECT CONCAT(fk.name, N'|', OBJECT_NAME(fk.parent_object_id), N'->',"
            + " OBJECT_NAME(fk.referenced_object_id), N'|', CASE WHEN fk.is_not_trusted = 0 AND fk.is_disabled = 0"
            + " THEN N'trusted' ELSE N'not trusted' END) FROM sys.foreign_keys AS fk"
            + " WHERE OBJECT_NAME(fk.parent_object_id) IN (N'Region', N'Supplier', N'Product', N'Warehouse', N'Stock', N'Sale')"
            + " AND OBJECT_NAME(fk.referenced_object_id) IN (N'Region', N'Supplier', N'Product', N'Warehouse', N'Stock', N'Sale')";
}
