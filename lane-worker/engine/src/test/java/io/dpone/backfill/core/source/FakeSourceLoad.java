package io.dpone.backfill.core.source;

/**
 * A source whose load a test sets: replica lag (which a single test server cannot produce) and active sessions. It
 * passes {@link SourceLoadProbeContract}, as the PostgreSQL probe does.
 */
public final class FakeSourceLoad implements SourceLoadProbe {
    private volatile Double lagSeconds;
    private volatile int active;

    public void lag(Double seconds) {
        lagSeconds = seconds;
    }

    public AutoCloseable sessions(int n) {
        active += n;
        return () -> active -= n;
    }

    @Override
    public SourceLoad read() {
        return new SourceLoad(lagSeconds, active);
    }
}
