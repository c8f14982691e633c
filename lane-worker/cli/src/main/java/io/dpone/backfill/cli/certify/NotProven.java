package io.dpone.backfill.cli.certify;

import io.dpone.backfill.core.campaign.TargetType;

import java.util.ArrayList;
import java.util.List;

/**
 * What a certification on this route and engine cannot prove, said in the report instead of being failed or
 * pretended. Babelfish's entries come from src-docs/babelfish-gaps.md.
 */
public record NotProven(String claim, String reason) {
    static List<NotProven> on(TargetType target, boolean babelfish) {
        List<NotProven> out = new ArrayList<>();
        out.add(new NotProven("source rows written while chunks load",
                "the scratch source is a static copy; concurrent updates and deletes are covered by the test suites, not here"));
        if (target == TargetType.POSTGRES) {
            return out;
        }
        out.add(new NotProven("row content of the published table equals the source",
                "on a SQL Server target certify compares keys and row counts only; run `backfill verify` for content"));
        out.add(new NotProven("indexes, unique constraints and a clustered columnstore rebuilt on the shadow and renamed at the swap",
                "the scratch target table copies the reviewed table's columns (SELECT TOP 0 ... INTO) without its keys and"
                        + " indexes; `backfill doctor` checks the reviewed table itself"));
        if (!babelfish) {
            return out;
        }
        out.add(new NotProven("SQL Server's own lock and session semantics (sp_getapplock answering -1, LOCK_TIMEOUT error 1222,"
                + " a killed session's rollback)", "Babelfish implements T-SQL on PostgreSQL: the scenarios ran against its"
                + " emulation; -999 and error 33557097 stand in for SQL Server's answers"));
        out.add(new NotProven("a killed lane's chunk claimed again at once through its lane lock (ADR 0021)",
                "the adapter takes no lane locks on Babelfish, which aborts after a few application-lock conflicts per"
                        + " session (babelfish-gaps.md): here a killed lane's chunk waited for its lease"));
        out.add(new NotProven("temporal and uniqueidentifier values through SQLServerBulkCopy",
                "Babelfish corrupts or refuses them through bulk copy (babelfish-gaps.md); a campaign table holding such"
                        + " columns fails here without saying anything about SQL Server"));
        out.add(new NotProven("grants, owner and identity positions carried to the shadow at the swap",
                "Babelfish lists no object grants and mis-parses DBCC CHECKIDENT with N'' (babelfish-gaps.md)"));
        out.add(new NotProven("binary and money columns in the content fingerprint that guards publication",
                "Babelfish's CONVERT of varbinary (style 1) and money (style 2) differ from SQL Server (babelfish-gaps.md)"));
        return out;
    }
}
