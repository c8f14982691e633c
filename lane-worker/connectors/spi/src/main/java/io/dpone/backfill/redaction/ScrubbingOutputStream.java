package io.dpone.backfill.redaction;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A process's standard output and error, scrubbed by {@link CredentialScrubber} line by line: whatever prints
 * (a command's report, the evidence JSON, a stack trace, a driver's java.util.logging warning) leaves without the
 * credentials the process holds. A line is scrubbed whole, so a password is never split between two writes; it
 * leaves at its end ({@code \n}, or {@code \r} for a progress line redrawn in place), at {@value #LONGEST_LINE}
 * bytes, or when the process exits.
 */
public final class ScrubbingOutputStream extends OutputStream {
    static final int LONGEST_LINE = 64 * 1024;
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    private final OutputStream out;
    private final Charset charset;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    public ScrubbingOutputStream(OutputStream out, Charset charset) {
        this.out = out;
        this.charset = charset;
    }

    /**
     * Replaces {@code System.out} and {@code System.err} with scrubbing ones. Call it first in {@code main}, before
     * anything (java.util.logging's console handler, picocli) takes hold of the original streams. Once per process:
     * the CLI's main hands {@code backfill lane} to the lane's, and both call it.
     */
    public static void installOnStandardStreams() {
        if (!INSTALLED.compareAndSet(false, true)) {
            return;
        }
        Charset charset = Charset.defaultCharset();
        ScrubbingOutputStream stdout = new ScrubbingOutputStream(System.out, charset);
        ScrubbingOutputStream stderr = new ScrubbingOutputStream(System.err, charset);
        System.setOut(new PrintStream(stdout, true, charset));
        System.setErr(new PrintStream(stderr, true, charset));
        // System.exit does not close the standard streams: a last line without its newline would be lost.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stdout.emitPending();
            stderr.emitPending();
        }, "scrubbed-output-drain"));
    }

    @Override
    public synchronized void write(int b) throws IOException {
        line.write(b);
        if (b == '\n' || b == '\r' || line.size() >= LONGEST_LINE) {
            emit();
        }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
        for (int i = offset; i < offset + length; i++) {
            write(bytes[i]);
        }
    }

    /** Only whole lines are written: a flush in the middle of one waits for its end (see the class comment). */
    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        emit();
        out.close();
    }

    synchronized void emitPending() {
        try {
            emit();
        } catch (IOException ignored) {
            // the process is ending and its output is gone: nothing is left to report it to
        }
    }

    private void emit() throws IOException {
        if (line.size() == 0) {
            return;
        }
        String text = line.toString(charset);
        String scrubbed = CredentialScrubber.scrub(text);
        out.write(scrubbed.equals(text) ? line.toByteArray() : scrubbed.getBytes(charset));
        out.flush();
        line.reset();
    }
}
