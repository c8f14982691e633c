package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Severity;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source doctor's read-cost finding (issue 41) on real tables: uuid chunks over random keys warn with the
 * factor, why and the physical chunking that fixes it; physical chunks on the same table and integer chunks over a
 * key written in heap order pass at about 1x.
 */
class PostgresDoctorReadCostIT {
    private static PostgresDatabase db;
    private static Connection source;

    @BeforeAll
    static void tables() throws Exception {
        db = PostgresDatabase.fresh("doctor_reads");
        db.execute("CREATE TABLE public.orders (id uuid NOT NULL PRIMARY KEY, seq bigint NOT NULL UNIQUE, note text)",
                "INSERT INTO public.orders SELECT gen_random_uuid(), i, 'order ' || i FROM generate_series(1, 50000) i",
                "VACUUM ANALYZE public.orders");
        source = db.connect();
    }

    @AfterAll
    static void close() throws Exception {
        source.close();
    }

    @Test
    void uuidChunksOverRandomKeysWarnWithTheFactorWhyAndThePhysicalFix() throws Exception {
        Finding finding = readCost(spec(ChunkKind.UUID, "id", 64));

        assertThat(finding.severity()).isEqualTo(Severity.WARNING);
        assertThat(finding.code()).isEqualTo("source.read-cost.high");
        assertThat(finding.message()).startsWith("64 uuid chunks read source table public.orders about ")
                .containsPattern("about [0-9]+\\.[0-9]x the table's [0-9,]+ pages")
                .contains("uuid keys of id lie in random order in the heap (pg_stats correlation");
        assertThat(finding.recommendedAction()).startsWith("Set chunk.kind: physical and remove chunk.column, keeping"
                + " chunk.buckets: 64").contains("XMin anchor").contains("incremental sync");
    }

    @Test
    void physicalChunksOnTheSameTableReadItOnce() throws Exception {
        Finding finding = readCost(spec(ChunkKind.PHYSICAL, null, 64));

        assertThat(finding.severity()).isEqualTo(Severity.OK);
        assertThat(finding.code()).isEqualTo("source.read-cost.ok");
        assertThat(finding.message()).contains("about 1.0x the table's")
                .contains("physical chunks: each chunk reads its own block range once");
    }

    @Test
    void integerChunksOverAKeyInHeapOrderReadItAboutOnce() throws Exception {
        BackfillCampaignSpec spec = spec(ChunkKind.INTEGER, "seq", 64);
        spec.getChunk().setLowerBound(1L);
        spec.getChunk().setUpperBound(50_000L);

        Finding finding = readCost(spec);

        assertThat(finding.severity()).isEqualTo(Severity.OK);
        assertThat(finding.message()).containsPattern("about 1\\.[0-2]x the table's")
                .contains("integer keys of seq follow the heap order");
    }

    private static Finding readCost(BackfillCampaignSpec spec) throws Exception {
        List<Finding> findings = new ArrayList<>();
        new PostgresSourceAdapter().doctor().checkTable(source, spec, findings);
        return findings.stream().filter(f -> f.code().startsWith("source.read-cost.")).reduce((a, b) -> {
            throw new AssertionError("two read-cost findings: " + a + ", " + b);
        }).orElseThrow(() -> new AssertionError("no read-cost finding in " + findings));
    }

    private static BackfillCampaignSpec spec(ChunkKind kind, String column, int buckets) {
        BackfillCampaignSpec spec = CampaignReader.parse(CampaignYamlFixture.postgres()).spec();
        spec.getSource().setSchema("public");
        spec.getSource().setTable("orders");
        spec.setUniqueKey(List.of("id"));
        spec.getChunk().setKind(kind);
        spec.getChunk().setColumn(column);
        spec.getChunk().setBuckets(buckets);
        spec.getChunk().setLowerBound(null);
        spec.getChunk().setUpperBound(null);
        return spec;
    }
}
