package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 39: names a campaign's author writes, and the columns of the tables it names, are names, never SQL or format
 * text. A PostgreSQL-to-PostgreSQL campaign whose state schema, table and every column carry format and placeholder
 * syntax, comment and statement separators, JDBC escapes and a character outside the BMP runs to its handoff on real
 * PostgreSQL, every value equal; a column the identifier rules refuse (a quote) is refused by pre-flight naming it,
 * before the ledger exists.
 */
class HostileNamesIT {
    static final String STATE = "st%1$s ${schema}";
    static final String TABLE = "t %s ${schema} --;";
    static final String KEY = "id?k";
    /** Quotes, brackets and control characters are refused by the identifier rules (below); all else is quoted. */
    static final List<String> COLUMNS = List.of(KEY, "%1$s", "${schema_in_literal}", "x--y", "semi;colon", "a/*b",
            "emoji\uD83D\uDE00", "q?{fn now()}", "%n%%");

    private CampaignHarness h;

    @BeforeEach
    void setUp() {
        h = new CampaignHarness();
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void aCampaignWhoseEveryNameIsHostileRunsToItsHandoffEveryValueEqual() throws Exception {
        String table = PostgresIdentifiers.qualified("public", TABLE);
        String ddl = "CREATE TABLE " + table + " (" + PostgresIdentifiers.quote(KEY) + " bigint PRIMARY KEY, "
                + COLUMNS.subList(1, COLUMNS.size()).stream().map(c -> PostgresIdentifiers.quote(c) + " text")
                .collect(Collectors.joining(", ")) + ")";
        h.source.execute(ddl);
        h.source.execute("INSERT INTO " + table + " SELECT i" + ", 'v' || i".repeat(COLUMNS.size() - 1)
                + " FROM generate_series(1, 3000) i");
        h.target.execute(ddl);
        String yaml = """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata: {name: hostile}
                spec:
                  backfillId: hostile_names_v1
                  source: {connectionSecretRef: {name: src}, schema: public, table: %s}
                  target: {type: postgres, connectionSecretRef: {name: tgt}, schema: public, table: %s}
                  uniqueKey: [%s]
                  chunk: {column: %s, kind: integer, buckets: 4, lowerBound: 1, upperBound: 3000}
                  parallelWorkers: 2
                  state: {schema: %s}
                  publication: {mode: shadow_swap}
                """.formatted(yamlString(TABLE), yamlString(TABLE), yamlString(KEY), yamlString(KEY), yamlString(STATE));
        CampaignBlueprint b = CampaignBlueprint.of(CampaignReader.parse(yaml));
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = CampaignHarness.openAndLease(s, b);
            assertThat(h.runToSettled(b, s, lease).phase()).as(String.join("\n", h.laneLog))
                    .isEqualTo(CampaignPhase.HandoffCommitted);
        }
        String rows = "SELECT * FROM " + table + " ORDER BY 1";
        assertThat(h.target.queryForStrings(rows)).isEqualTo(h.source.queryForStrings(rows)).hasSize(3000);
        assertThat(h.target.queryForLong("SELECT count(*) FROM " + PostgresIdentifiers.quote(STATE) + ".chunk_receipt"))
                .isEqualTo(4);
    }

    @Test
    void aSourceColumnTheIdentifierRulesRefuseIsRefusedByPreflightNamingItBeforeAnySideEffect() throws Exception {
        String ddl = "CREATE TABLE public.items (id bigint PRIMARY KEY, \"it's\" text)";
        h.source.execute(ddl);
        h.target.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, \"it's\" text)");
        CampaignBlueprint b = CampaignBlueprint.of(CampaignReader.parse(CampaignHarness.campaign("quoted_column_v1",
                "{column: id, kind: integer, buckets: 2, lowerBound: 1, upperBound: 10}", "").render()));
        try (CampaignRuntime s = h.session(b)) {
            var preflight = s.preflight(b, null).run();
            assertThat(preflight.refuses()).isTrue();
            assertThat(preflight.errors()).anySatisfy(f -> assertThat(f.toString()).contains("it's").contains("quote"));
        }
        assertThat(h.target.hasSchema("backfill_state")).as("no side effect").isFalse();
    }

    /** A YAML double-quoted scalar: backslash and quote escaped, control characters as escapes. */
    static String yamlString(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t") + "\"";
    }
}
