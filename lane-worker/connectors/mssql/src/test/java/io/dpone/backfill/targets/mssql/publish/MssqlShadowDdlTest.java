package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.publish.MssqlCarriedObject.Kind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** T-SQL rendering of the shadow's DDL, without a database: identifiers, types per family, columns, objects. */
class MssqlShadowDdlTest {
    private static final UnaryOperator<String> TEMP = n -> "tmp_" + n;

    @Test
    void identifiersAreBracketQuotedWithClosingBracketsDoubled() {
        assertThat(MssqlIdentifiers.quote("orders")).isEqualTo("[orders]");
        assertThat(MssqlIdentifiers.quote("a]b")).isEqualTo("[a]]b]");
        assertThat(MssqlIdentifiers.quote("]]")).isEqualTo("[]]]]]");
        assertThat(MssqlIdentifiers.quote("we[ird name.")).isEqualTo("[we[ird name.]");
        assertThat(MssqlObjectNames.twoPart("s]", "t")).isEqualTo("[s]]].[t]");
        assertThat(MssqlObjectNames.threePart("dbo", "t", "ix")).isEqualTo("[dbo].[t].[ix]");
        assertThatThrownBy(() -> MssqlIdentifiers.quote("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MssqlIdentifiers.quote("x".repeat(129))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MssqlIdentifiers.quote("a\u0000b")).isInstanceOf(IllegalArgumentException.class);
        assertThat(MssqlIdentifiers.inLiteral("[dbo].[o'neil]")).isEqualTo("[dbo].[o''neil]");
    }

    @Test
    void typesAreRenderedAsTsqlWritesThemForEachFamily() {
        // character and binary: bytes for single-byte types, characters for n-types, max for -1
        assertThat(MssqlTypes.render("varchar", 50, 0, 0)).isEqualTo("varchar(50)");
        assertThat(MssqlTypes.render("char", 3, 0, 0)).isEqualTo("char(3)");
        assertThat(MssqlTypes.render("nvarchar", 40, 0, 0)).isEqualTo("nvarchar(20)");
        assertThat(MssqlTypes.render("nchar", 2, 0, 0)).isEqualTo("nchar(1)");
        assertThat(MssqlTypes.render("nvarchar", -1, 0, 0)).isEqualTo("nvarchar(max)");
        assertThat(MssqlTypes.render("varchar", -1, 0, 0)).isEqualTo("varchar(max)");
        assertThat(MssqlTypes.render("varbinary", -1, 0, 0)).isEqualTo("varbinary(max)");
        assertThat(MssqlTypes.render("binary", 16, 0, 0)).isEqualTo("binary(16)");
        // exact numerics: precision and scale
        assertThat(MssqlTypes.render("decimal", 9, 10, 2)).isEqualTo("decimal(10,2)");
        assertThat(MssqlTypes.render("numeric", 17, 38, 0)).isEqualTo("numeric(38,0)");
        // time types: fractional-second scale
        assertThat(MssqlTypes.render("datetime2", 7, 23, 3)).isEqualTo("datetime2(3)");
        assertThat(MssqlTypes.render("datetimeoffset", 10, 34, 7)).isEqualTo("datetimeoffset(7)");
        assertThat(MssqlTypes.render("time", 5, 16, 7)).isEqualTo("time(7)");
        // approximate numerics
        assertThat(MssqlTypes.render("float", 8, 53, 0)).isEqualTo("float");
        assertThat(MssqlTypes.render("real", 4, 24, 0)).isEqualTo("real");
        // no arguments
        for (String plain : List.of("int", "bigint", "smallint", "tinyint", "bit", "money", "date", "datetime",
                "smalldatetime", "uniqueidentifier", "xml", "sql_variant", "sysname", "geography", "hierarchyid")) {
            assertThat(MssqlTypes.render(plain, 8, 19, 0)).isEqualTo(plain);
        }
        assertThat(MssqlTypes.render("NVARCHAR", 20, 0, 0)).isEqualTo("nvarchar(10)");
    }

    @Test
    void columnsCarryTypeCollationIdentityNullabilityAndANamedDefault() {
        assertThat(MssqlShadowDdl.column(column("id", "bigint", 8, 19, 0, false, null, "100", "5", null, null), TEMP))
                .isEqualTo("[id] bigint IDENTITY(100, 5) NOT NULL");
        assertThat(MssqlShadowDdl.column(column("code", "nvarchar", 40, 0, 0, false, "Latin1_General_CS_AS", null, null,
                "orders_code_df", "(N'none')"), TEMP))
                .isEqualTo("[code] nvarchar(20) COLLATE Latin1_General_CS_AS NOT NULL CONSTRAINT [tmp_orders_code_df] DEFAULT (N'none')");
        assertThat(MssqlShadowDdl.column(column("amount", "decimal", 9, 12, 3, true, null, null, null, null, null), TEMP))
                .isEqualTo("[amount] decimal(12,3) NULL");
        assertThat(MssqlShadowDdl.column(column("at]", "datetime2", 7, 23, 3, true, null, null, null, null, null), TEMP))
                .isEqualTo("[at]]] datetime2(3) NULL");
        assertThat(MssqlShadowDdl.column(column("blob", "varbinary", -1, 0, 0, true, null, null, null, null, null), TEMP))
                .isEqualTo("[blob] varbinary(max) NULL");
        assertThat(MssqlShadowDdl.column(column("ratio", "float", 8, 53, 0, true, null, null, null, null, null), TEMP))
                .isEqualTo("[ratio] float NULL");
    }

    @Test
    void computedColumnsStayComputedAndOnlyPersistedOnesDeclareNotNull() {
        MssqlCatalogColumn virtual = new MssqlCatalogColumn(9, "doubled", "numeric", 17, 38, 3, true, null, false, null, null, null,
                null, "([amount]*(2))", false);
        MssqlCatalogColumn persisted = new MssqlCatalogColumn(10, "total", "numeric", 17, 38, 3, false, null, false, null, null, null,
                null, "([amount]*(3))", true);

        assertThat(MssqlShadowDdl.column(virtual, TEMP)).isEqualTo("[doubled] AS ([amount]*(2))");
        assertThat(MssqlShadowDdl.column(persisted, TEMP)).isEqualTo("[total] AS ([amount]*(3)) PERSISTED NOT NULL");
        assertThat(virtual.shape().generated()).isTrue();
        assertThat(virtual.shape().defaultExpression()).isEqualTo("([amount]*(2))");
        assertThat(persisted.shape().type()).isEqualTo("numeric(38,3) PERSISTED");
    }

    @Test
    void createTableIsAHeapOfTheColumnsInOrder() {
        List<MssqlCatalogColumn> columns = List.of(column("id", "int", 4, 10, 0, false, null, null, null, null, null),
                column("n", "nvarchar", 20, 0, 0, true, "SQL_Latin1_General_CP1_CI_AS", null, null, null, null));

        assertThat(MssqlShadowDdl.createTable("dbo", "orders__bf_shadow", columns, TEMP)).isEqualTo(
                "CREATE TABLE [dbo].[orders__bf_shadow] ([id] int NOT NULL, [n] nvarchar(10) COLLATE SQL_Latin1_General_CP1_CI_AS NULL)");
    }

    @Test
    void deferredObjectsAreCreatedUnderTheGivenNameOnTheShadow() {
        assertThat(MssqlShadowDdl.create(new MssqlCarriedObject(Kind.PRIMARY_KEY, "orders_pk", "PRIMARY KEY CLUSTERED ([id] ASC)",
                null, true), "dbo", "sh", "bf_1_s")).isEqualTo("ALTER TABLE [dbo].[sh] ADD CONSTRAINT [bf_1_s] PRIMARY KEY CLUSTERED ([id] ASC)");
        assertThat(MssqlShadowDdl.create(new MssqlCarriedObject(Kind.UNIQUE, "uq", "UNIQUE NONCLUSTERED ([code] ASC)",
                null, false), "dbo", "sh", "bf_2_s")).isEqualTo("ALTER TABLE [dbo].[sh] ADD CONSTRAINT [bf_2_s] UNIQUE NONCLUSTERED ([code] ASC)");
        assertThat(MssqlShadowDdl.create(new MssqlCarriedObject(Kind.CHECK, "ck", "CHECK ([amount]>=(0))", null, false),
                "dbo", "sh", "bf_3_s")).isEqualTo("ALTER TABLE [dbo].[sh] WITH CHECK ADD CONSTRAINT [bf_3_s] CHECK ([amount]>=(0))");
        assertThat(MssqlShadowDdl.create(new MssqlCarriedObject(Kind.INDEX, "ix",
                "UNIQUE NONCLUSTERED INDEX ([amount] DESC) INCLUDE ([code]) WHERE ([amount]>(0))", null, false), "dbo", "sh", "bf_4_s"))
                .isEqualTo("CREATE UNIQUE NONCLUSTERED INDEX [bf_4_s] ON [dbo].[sh] ([amount] DESC) INCLUDE ([code]) WHERE ([amount]>(0))");
        assertThat(MssqlShadowDdl.create(new MssqlCarriedObject(Kind.CLUSTERED_COLUMNSTORE, "cci", "CLUSTERED COLUMNSTORE",
                null, true), "dbo", "sh", "bf_5_s")).isEqualTo("CREATE CLUSTERED COLUMNSTORE INDEX [bf_5_s] ON [dbo].[sh]");
        assertThat(MssqlShadowDdl.create(new MssqlCarriedObject(Kind.FOREIGN_KEY, "fk", "FOREIGN KEY ...", null, false),
                "dbo", "sh", "x")).as("foreign keys are not rebuilt").isNull();
        assertThat(MssqlShadowDdl.deferred(Kind.CLUSTERED_COLUMNSTORE)).as("created before loading").isFalse();
        assertThat(MssqlShadowDdl.deferred(Kind.DEFAULT)).as("created with the table").isFalse();
    }

    @Test
    void temporaryNamesAreStableShortAndDifferForShadowAndBackup() {
        ArtifactNames names = new ArtifactNames("dbo", "orders__bf_shadow", "orders__bf_backup");

        assertThat(CarriedObjectNames.onShadow(names, "orders_pk")).isEqualTo(CarriedObjectNames.onShadow(names, "orders_pk"))
                .hasSize(21).startsWith("bf_").endsWith("_s")
                .isNotEqualTo(CarriedObjectNames.onShadow(names, "orders_uq"));
        assertThat(CarriedObjectNames.onBackup(names, "orders_pk")).hasSize(21).endsWith("_b");
    }

    /**
     * SQL Server creates no default on a timestamp column ("DEFAULT definitions cannot be created on columns defined
     * with a timestamp data type", learn.microsoft.com ms191289): the shadow's rowversion column, which a table needs
     * for reconciliation passes (ADR 0056), never carries one, even where a catalog lists one.
     */
    @Test
    void aRowversionColumnIsCreatedWithoutTheDefaultACatalogMayListForIt() {
        MssqlCatalogColumn version = column("dpone_row_version", "timestamp", 8, 0, 0, false, null, null, null, "df_v",
                "(CONVERT([timestamp],get_current_full_xact_id()))");
        assertThat(MssqlShadowDdl.column(version, TEMP)).isEqualTo("[dpone_row_version] timestamp NOT NULL");
        MssqlCatalogColumn amount = column("amount", "int", 4, 10, 0, false, null, null, null, "df_a", "((0))");
        assertThat(MssqlShadowDdl.column(amount, TEMP)).isEqualTo("[amount] int NOT NULL CONSTRAINT [tmp_df_a] DEFAULT ((0))");
    }

    private static MssqlCatalogColumn column(String name, String type, int maxLength, int precision, int scale, boolean nullable,
                                      String collation, String seed, String increment, String defaultName,
                                      String defaultDefinition) {
        return new MssqlCatalogColumn(1, name, type, maxLength, precision, scale, nullable, collation, seed != null, seed,
                increment, defaultName, defaultDefinition, null, false);
    }
}
