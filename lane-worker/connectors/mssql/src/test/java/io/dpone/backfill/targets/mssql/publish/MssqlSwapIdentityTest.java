package io.dpone.backfill.targets.mssql.publish;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shadow's reseed against DBCC CHECKIDENT's documented semantics (sql-docs
 * docs/t-sql/database-console-commands/dbcc-checkident-transact-sql.md, Remarks, RESEED new_reseed_value): with rows
 * present the next row gets new_reseed_value + increment; with no row inserted since creation the first row gets
 * new_reseed_value itself. The next value each case yields must be past every value the live table issued.
 */
class MssqlSwapIdentityTest {
    private static final BigDecimal UP = BigDecimal.ONE;
    private static final BigDecimal DOWN = BigDecimal.ONE.negate();

    private static BigDecimal n(long v) {
        return BigDecimal.valueOf(v);
    }

    @Test
    void anEmptySourceIsReseededOnePastTheLiveTablesLastValueSoItsFirstRowDoesNotReuseIt() {
        // Live issued up to 100; the shadow (seed 1) never had a row: IDENT_CURRENT reports its seed.
        BigDecimal reseed = MssqlSwapIdentity.reseedTo(UP, n(100), n(1), null);

        assertThat(reseed).isEqualTo(n(101));
        // First row of a table with no rows since creation = new_reseed_value: 101, not the live table's 100.
    }

    @Test
    void anEmptyShadowWhoseSeedEqualsTheLiveTablesOnlyIssuedValueIsStillMovedPastIt() {
        assertThat(MssqlSwapIdentity.reseedTo(UP, n(1), n(1), null)).isEqualTo(n(2));
    }

    @Test
    void aLiveTableThatNeverIssuedAValueLeavesAnEmptyShadowAtItsSeed() {
        assertThat(MssqlSwapIdentity.reseedTo(UP, null, n(1), null)).isNull();
    }

    @Test
    void aLoadedShadowIsReseededToTheFurthestOfLiveAndLoadedValues() {
        // Rows present: next row = new_reseed_value + increment.
        assertThat(MssqlSwapIdentity.reseedTo(UP, n(100), n(50), n(50))).isEqualTo(n(100));
        assertThat(MssqlSwapIdentity.reseedTo(UP, n(100), n(500), n(500))).as("already past").isNull();
        assertThat(MssqlSwapIdentity.reseedTo(UP, null, n(7), n(7))).as("no live values, loaded ones kept").isNull();
    }

    @Test
    void aDescendingIdentityIsMovedBelow() {
        assertThat(MssqlSwapIdentity.reseedTo(DOWN, n(-100), n(-1), null)).isEqualTo(n(-101));
        assertThat(MssqlSwapIdentity.reseedTo(DOWN, n(-100), n(-50), n(-50))).isEqualTo(n(-100));
    }

    @Test
    void theLiveTablesIssuedValueIsNullUntilItIssuedOneAndTheReseedIsOneDbccStatement() {
        assertThat(MssqlSwapIdentity.liveIssued("[dbo].[orders]")).isEqualTo("CONVERT(decimal(38,0), CASE WHEN EXISTS"
                + " (SELECT 1 FROM sys.identity_columns AS ic WHERE ic.object_id = OBJECT_ID(N'[dbo].[orders]')"
                + " AND ic.last_value IS NOT NULL) THEN IDENT_CURRENT(N'[dbo].[orders]') END)");
        assertThat(MssqlSwapIdentity.reseedStatement("[dbo].[o'x]", n(101)))
                .isEqualTo("DBCC CHECKIDENT (N'[dbo].[o''x]', RESEED, 101) WITH NO_INFOMSGS");
    }
}
