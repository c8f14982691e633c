package io.dpone.backfill.cli.certify;

import io.dpone.backfill.core.fault.FaultPoint;

import java.util.List;

/**
 * One smoke scenario: a scratch campaign run as a real `backfill run` with one fault point armed, the run SIGKILLed
 * (driver, lanes, the frozen process) once that point is reached, then (unless {@code resumes} is false) one
 * `backfill resume`. {@code where} is what the report says about the crash window.
 */
public record Scenario(String id, FaultPoint point, Role role, String where, boolean resumes) {
    /** Which process the fault point stops: the driver ({@code BACKFILL_FAULT}) or a lane ({@code BACKFILL_LANE_FAULT}). */
    enum Role {
        DRIVER, LANE;

        String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The first scenario: an older generation abandoned with its validated shadow, which every later one must keep. */
    static final String OLDER_GENERATION = "older-generation-shadow";

    /** The reference design's smoke scenarios and what it takes to reach every fault point at least once. */
    static List<Scenario> all() {
        return List.of(
                new Scenario(OLDER_GENERATION, FaultPoint.BEFORE_PUBLISH, Role.DRIVER,
                        "an older generation's driver killed between validation and publication and never resumed: its"
                                + " validated shadow stays in the scratch schema, and every later generation must leave it intact",
                        false),
                new Scenario("lane-after-claim", FaultPoint.AFTER_CLAIM, Role.LANE,
                        "a lane killed right after claiming a chunk (epoch + 1, lease taken), before its receipt", true),
                new Scenario("lane-mid-copy", FaultPoint.MID_COPY, Role.LANE,
                        "a lane killed inside its chunk transaction: receipt inserted, 500 rows streamed and flushed, not committed", true),
                new Scenario("lane-before-commit", FaultPoint.BEFORE_COMMIT, Role.LANE,
                        "a lane killed with the receipt inserted and every row of the chunk loaded, before the fenced ledger"
                                + " update and the commit (all three roll back together)", true),
                new Scenario("lane-after-commit", FaultPoint.AFTER_COMMIT, Role.LANE,
                        "a lane killed after the target committed the receipt, the rows and the ledger row in one transaction,"
                                + " before the lane saw the commit: the resume must replay from the receipt, never load the chunk again", true),
                new Scenario("driver-in-prepare", FaultPoint.IN_PREPARE, Role.DRIVER,
                        "the driver killed before preparation completed: anchor, shadow and shapes recorded, the move to Prepared not", true),
                new Scenario("driver-before-publish", FaultPoint.BEFORE_PUBLISH, Role.DRIVER,
                        "the driver killed between validation and publication", true),
                new Scenario("driver-in-publish", FaultPoint.IN_PUBLISH, Role.DRIVER,
                        "the driver killed inside the publication transaction: live renamed to backup, shadow to live,"
                                + " publication receipt written, not committed", true),
                new Scenario("driver-after-publish", FaultPoint.AFTER_PUBLISH, Role.DRIVER,
                        "the driver killed after the publication committed, before the move to Published and the XMin handoff", true));
    }

    /**
     * The scenarios named by {@code ids} (null or empty: all), in their canonical order whatever the order given.
     * An unknown id throws {@link IllegalArgumentException} naming the known ones.
     */
    static List<Scenario> selected(List<String> ids) {
        if (ids == null || ids.isEmpty()) {
            return all();
        }
        List<String> known = all().stream().map(Scenario::id).toList();
        for (String id : ids) {
            if (!known.contains(id)) {
                throw new IllegalArgumentException("unknown scenario '" + id + "'; the scenarios are " + String.join(", ", known));
            }
        }
        return all().stream().filter(s -> ids.contains(s.id())).toList();
    }

    /** The fault environment of the scenario's `backfill run`. */
    String faultVariable() {
        return role == Role.DRIVER ? "BACKFILL_FAULT" : "BACKFILL_LANE_FAULT";
    }

    /** Campaign points fire with chunk -1; a lane point fires at the first chunk of any lane that reaches it. */
    String faultSpec() {
        return point.wireName() + ":" + (role == Role.DRIVER ? "-1" : "*");
    }
}
