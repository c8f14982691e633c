package io.dpone.backfill.core.source;

/** The fake the guard's tests use, held to the contract the PostgreSQL probe passes on a real server. */
class FakeSourceLoadTest extends SourceLoadProbeContract {
    private final FakeSourceLoad source = new FakeSourceLoad();

    @Override
    protected SourceLoadProbe probe() {
        return source;
    }

    @Override
    protected AutoCloseable activeSessions(int n) {
        return source.sessions(n);
    }

    @Override
    protected AutoCloseable backfillSessions(int n) {
        return () -> { }; // backfill's own sessions are not counted: on the fake they do not exist
    }
}
