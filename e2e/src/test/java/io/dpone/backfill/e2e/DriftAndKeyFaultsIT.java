package io.dpone.backfill.e2e;

import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fault-matrix rows that must stop a campaign rather than heal, on real processes: the source changes shape while
 * lanes load, and the source holds a key twice. Either way the campaign blocks, naming why, and the live table is
 * the old one, untouched.
 */
class DriftAndKeyFaultsIT {
    @TempDir
    Path dir;

    @Test
    void theSourceChangingShapeWhileLanesLoadBlocksTheCampaignAndLeavesTheLiveTableUntouched() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "drift_mid_load", 60_000, CampaignYaml.uuidChunks(64), 2);
        try (LaunchedProcess run = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (f.committedChunks() < 2) {
                assertThat(System.nanoTime()).as(run.output()).isLessThan(deadline);
                Thread.sleep(50);
            }
            f.source.execute("ALTER TABLE public.items ADD COLUMN added_mid_load integer");
            int exit = run.awaitExit(Duration.ofSeconds(120));
            assertThat(exit).as(run.output()).isEqualTo(3);
            assertThat(run.output()).contains("Blocked").contains("changed shape since preparation");
        }
        assertLiveTableIsTheOldOne(f);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'"))
                .as("loading stopped before every chunk was in").isLessThan(64);
    }

    @Test
    void aKeyTheSourceHoldsTwiceStopsTheCampaignBeforePublicationNamingIt() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "duplicate_key", 5000, CampaignYaml.uuidChunks(8), 2);
        // The declared unique key is no longer unique in the source: one row copied under the key of another.
        f.source.execute("ALTER TABLE public.items DROP CONSTRAINT items_pkey",
                "INSERT INTO public.items SELECT id, qty + 1, 'twin' FROM public.items ORDER BY id LIMIT 1");
        try (LaunchedProcess run = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            int exit = run.awaitExit(Duration.ofSeconds(180));
            System.out.println("a duplicate source key: exit " + exit);
            assertThat(exit).as("refused by pre-flight (6) or blocked by validation (3):%n%s", run.output()).isIn(3, 6);
            assertThat(run.output()).as("naming the key").containsAnyOf("duplicate", "unique");
        }
        assertLiveTableIsTheOldOne(f);
    }

    private static void assertLiveTableIsTheOldOne(CampaignFixture f) throws Exception {
        assertThat(ItemsTable.rows(f.target)).as("the live table is the old one").hasSize(1)
                .allMatch(r -> r.startsWith(ItemsTable.OLD_ROW_ID));
        assertThat(f.target.queryForLong("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'backfill_state'"
                + " AND table_name = 'publication_receipt'") == 0 ? 0
                : f.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).as("nothing published").isZero();
    }
}
