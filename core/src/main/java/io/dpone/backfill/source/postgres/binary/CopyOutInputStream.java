package io.dpone.backfill.source.postgres.binary;

import org.postgresql.copy.CopyOut;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;

/**
 * pgjdbc's {@link CopyOut} as a plain byte stream. CopyData messages are treated as arbitrary slices of the
 * stream (the server happens to send one per row, but nothing here relies on it); at most one message is held.
 * Closing before the end cancels the COPY, which leaves the connection usable but aborts an open transaction.
 */
public final class CopyOutInputStream extends InputStream {
    private final CopyOut copyOut;
    private byte[] message;
    private int position;
    private boolean ended;

    public CopyOutInputStream(CopyOut copyOut) {
        this.copyOut = copyOut;
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return message[position++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, message.length - position);
        System.arraycopy(message, position, b, off, n);
        position += n;
        return n;
    }

    /** The number of rows the server reports having sent; meaningful once the stream has ended. */
    public long serverRowCount() {
        return copyOut.getHandledRowCount();
    }

    public boolean ended() {
        return ended;
    }

    @Override
    public void close() throws IOException {
        message = null;
        if (copyOut.isActive()) {
            try {
                copyOut.cancelCopy();
            } catch (SQLException e) {
                throw new IOException("could not cancel the COPY", e);
            }
        }
    }

    private boolean fill() throws IOException {
        while (message == null || position == message.length) {
            if (ended) {
                return false;
            }
            try {
                message = copyOut.readFromCopy();
            } catch (SQLException e) {
                throw new IOException("reading the COPY failed: " + e.getMessage(), e);
            }
            position = 0;
            if (message == null) {
                ended = true;
                return false;
            }
        }
        return true;
    }
}
