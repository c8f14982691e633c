package io.dpone.backfill.cli.bench;

import io.dpone.backfill.core.plan.CampaignBlueprint;

import java.util.OptionalDouble;

/** S, the product: a shadow_swap campaign run to its handoff with lanes as processes, on the same plan and workers. */
final class CampaignArm implements BenchArm {
    @Override
    public String code() {
        return "S";
    }

    @Override
    public String description() {
        return "the shadow_swap campaign, end to end to the XMin handoff, lanes as processes";
    }

    @Override
    public ArmRun run(ArmContext context, ArmPlace place, int repetition) throws Exception {
        place.createLiveTable();
        return load(this, context, place, repetition, context.campaign().blueprint(place, "r" + repetition + "_s"));
    }

    /** Runs {@code blueprint} to its handoff, measured as {@code arm}'s run: the load S is and R begins with. */
    static ArmRun load(BenchArm arm, ArmContext context, ArmPlace place, int repetition, CampaignBlueprint blueprint)
            throws Exception {
        LaneHeapReports heaps = context.laneHeapReports();
        heaps.clear();
        String since = place.clock();
        ArmRun run = Measured.run(arm, context, place, repetition, () -> {
            int code = context.campaigns().run(blueprint, context.source().settings(), place.settings());
            if (code != 0) {
                throw new IllegalStateException("the benchmark campaign did not reach its handoff (exit " + code + ")");
            }
            return place.chunkTimings(blueprint.identity().runKey(), since);
        }).withLanePeakHeaps(heaps.peaks());
        OptionalDouble check = place.contentCheckSeconds(blueprint.identity().runKey());
        // After the measured run: the published table read once by one session, the floor the gate's parts compare with.
        return run.withContentCheck(check, check.isPresent() ? OptionalDouble.of(place.rawReadSeconds()) : OptionalDouble.empty());
    }
}
