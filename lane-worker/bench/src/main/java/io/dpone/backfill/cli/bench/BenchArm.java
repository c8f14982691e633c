package io.dpone.backfill.cli.bench;

/** One way of moving the table, measured on a fresh place of the target. */
interface BenchArm {
    /** B0, B1, B2 or S. */
    String code();

    String description();

    ArmRun run(ArmContext context, ArmPlace place, int repetition) throws Exception;
}
