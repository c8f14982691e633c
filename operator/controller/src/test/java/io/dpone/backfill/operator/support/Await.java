package io.dpone.backfill.operator.support;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** Polls a condition until it holds or the timeout passes; the failure message is computed only then. */
public final class Await {
    private Await() {
    }

    public static void until(Duration timeout, Callable<Boolean> condition, Supplier<String> whatWasSeen) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (Boolean.TRUE.equals(condition.call())) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not within " + timeout + ": " + whatWasSeen.get());
    }
}
