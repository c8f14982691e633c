package io.dpone.backfill.cli.certify;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** What one scenario did and found: the report's entry for it. */
public final class ScenarioOutcome {
    /** One assertion: its name, whether it held, what was measured. */
    record Check(String name, boolean passed, String detail) {
    }

    final Scenario scenario;
    String backfillId;
    String runKey;
    ChildRun.Fault fault;
    Integer runExitCode;
    Integer resumeExitCode;
    int resumeActions;
    long missingKeys = -1;
    long duplicateKeys = -1;
    long unexpectedKeys = -1;
    long sourceRows;
    long publishedRows = -1;
    long partialLiveExposures;
    long liveReads;
    TreeMap<Long, Long> liveCountsSeen = new TreeMap<>();
    long millisToFault;
    long millisResume;
    long millisTotal;
    String runLog;
    /** The last lines the crashed run wrote, for a failed crash-state check. */
    String crashLog;
    String resumeLog;
    final List<Check> checks = new ArrayList<>();
    final List<String> resumeActionsTaken = new ArrayList<>();

    ScenarioOutcome(Scenario scenario) {
        this.scenario = scenario;
    }

    void check(String name, boolean passed, String detail) {
        checks.add(new Check(name, passed, detail));
    }

    boolean passed() {
        return !checks.isEmpty() && checks.stream().allMatch(Check::passed);
    }

    List<Check> failures() {
        return checks.stream().filter(c -> !c.passed()).toList();
    }
}
