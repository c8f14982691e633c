package io.dpone.backfill.source.postgres.binary;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;

/**
 * pgjdbc's {@link CopyOut} as a plain byte stream. CopyData messages are treated as arbitrary slices of the
 * stream (the server happens to send one per row, but nothing here relies on it); at most one message is held.
 * Closing before the end cancels the COPY on the server and reads off what was already in flight, so the
 * connection is usable afterwards; an open transaction on it is aborted by the cancel.
 */
public final class CopyOutInputStream extends InputStream {
    private static final String QUERY_CANCELED = "57014";

    private final CopyOut copyOut;
    private final PGConnection connection;
    private byte[] message;
    private int position;
    private boolean ended;

    public CopyOutInputStream(CopyOut copyOut, PGConnection connection) {
        this.copyOut = copyOut;
        this.connection = connection;
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

    /**
     * Ends the COPY if it is still running. Not through {@link CopyOut#cancelCopy()}: for a COPY TO it only sends
     * the cancel request and releases the driver's lock, leaving the rest of the COPY unread on the socket, so the
     * next statement on the connection reads the COPY's leftovers and fails. A cancel that arrives after the
     * server finished finds it idle and is ignored; the drain then reads the rows still in flight.
     */
    @Override
    public void close() throws IOException {
        message = null;
        if (!copyOut.isActive()) {
            return;
        }
        try {
            connection.cancelQuery();
        } catch (SQLException e) {
            throw new IOException("could not cancel the COPY", e);
        }
        while (copyOut.isActive()) {
            try {
                if (copyOut.readFromCopy() == null) {
                    break;
                }
            } catch (SQLException e) {
                if (!QUERY_CANCELED.equals(e.getSQLState())) {
                    throw new IOException("the cancelled COPY ended with an unexpected error: " + e.getMessage(), e);
                }
            }
        }
        ended = true;
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
