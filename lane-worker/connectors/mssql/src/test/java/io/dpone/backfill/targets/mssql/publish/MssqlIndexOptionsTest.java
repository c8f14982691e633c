package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.publish.MssqlCarriedObject.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24: index options (IGNORE_DUP_KEY, fill factor, PAD_INDEX, row and page locks) were dropped at publication.
 * They are carried in the WITH clause that CREATE INDEX and a PRIMARY KEY / UNIQUE constraint accept (sql-docs
 * docs/t-sql/statements/create-index-transact-sql.md: WITH comes after INCLUDE and WHERE), and left out when every
 * one is the default so unchanged tables keep their definitions.
 */
class MssqlIndexOptionsTest {
    @Test
    void defaultOptionsAddNothing() {
        assertThat(MssqlCatalogObjects.options(0, false, false, true, true)).isEmpty();
        assertThat(MssqlCatalogObjects.options(100, false, false, true, true)).isEmpty();
    }

    @Test
    void everyNonDefaultOptionIsCarried() {
        assertThat(MssqlCatalogObjects.options(80, true, true, false, false))
                .isEqualTo(" WITH (PAD_INDEX = ON, FILLFACTOR = 80, IGNORE_DUP_KEY = ON, ALLOW_ROW_LOCKS = OFF,"
                        + " ALLOW_PAGE_LOCKS = OFF)");
        assertThat(MssqlCatalogObjects.options(90, false, false, true, true)).isEqualTo(" WITH (FILLFACTOR = 90)");
        assertThat(MssqlCatalogObjects.options(0, false, true, true, true)).isEqualTo(" WITH (IGNORE_DUP_KEY = ON)");
    }

    @Test
    void theOptionsFollowTheFilterInCreateIndexAndTheColumnsInAConstraint() {
        String with = MssqlCatalogObjects.options(90, false, true, true, true);
        MssqlCarriedObject index = new MssqlCarriedObject(Kind.INDEX, "ix", "UNIQUE NONCLUSTERED INDEX ([a] ASC)"
                + " INCLUDE ([b]) WHERE ([a]>(0))" + with, null, false);
        MssqlCarriedObject key = new MssqlCarriedObject(Kind.PRIMARY_KEY, "pk", "PRIMARY KEY CLUSTERED ([id] ASC)" + with,
                null, true);

        assertThat(MssqlShadowDdl.create(index, "dbo", "sh", "ix_s")).isEqualTo("CREATE UNIQUE NONCLUSTERED INDEX [ix_s]"
                + " ON [dbo].[sh] ([a] ASC) INCLUDE ([b]) WHERE ([a]>(0)) WITH (FILLFACTOR = 90, IGNORE_DUP_KEY = ON)");
        assertThat(MssqlShadowDdl.create(key, "dbo", "sh", "pk_s")).isEqualTo("ALTER TABLE [dbo].[sh] ADD CONSTRAINT"
                + " [pk_s] PRIMARY KEY CLUSTERED ([id] ASC) WITH (FILLFACTOR = 90, IGNORE_DUP_KEY = ON)");
    }
}
