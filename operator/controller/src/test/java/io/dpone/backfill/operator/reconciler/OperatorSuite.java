package io.dpone.backfill.operator.reconciler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** What every operator suite shares: a harness per test, lane logs in a managed temp dir, a clean teardown. */
abstract class OperatorSuite {
    @TempDir
    Path logs;

    OperatorHarness h;

    /** A fresh world (mock cluster, source/target databases with {@code rows} source rows, test kubelet). */
    OperatorHarness harness(int rows) throws Exception {
        h = new OperatorHarness(rows, logs);
        return h;
    }

    @AfterEach
    void closeHarness() {
        if (h != null) {
            h.close();
        }
    }
}
