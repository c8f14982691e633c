package io.dpone.backfill.source.postgres.binary;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Reads PostgreSQL's binary COPY format one tuple at a time into a reused {@code Object[]}. Only the current field
 * is held in memory; the field buffer grows to the widest field seen and no further, whatever the row count.
 * Not thread-safe: one reader per COPY.
 */
public final class BinaryCopyReader implements AutoCloseable {
    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};
    /** Bits 16-31 of the flags word are format changes a reader must not ignore (bit 16: OIDs included). */
    private static final int CRITICAL_FLAGS = 0xffff0000;
    private static final int INITIAL_BUFFER = 256;

    private final InputStream in;
    private final List<PlannedColumn> columns;
    private final ColumnDecoder[] decoders;
    private final Object[] row;
    private final byte[] word = new byte[4];
    private byte[] buffer = new byte[INITIAL_BUFFER];
    private long rowsRead;
    private boolean headerRead;
    private boolean finished;
    private boolean closed;

    public BinaryCopyReader(InputStream in, SourceColumnPlan plan) {
        this.in = in;
        this.columns = plan.columns();
        this.decoders = columns.stream().map(PlannedColumn::decoder).toArray(ColumnDecoder[]::new);
        this.row = new Object[decoders.length];
    }

    /** Starts {@code plan}'s COPY for the rows matching {@code predicate} (null: all) on {@code connection}. */
    public static BinaryCopyReader start(Connection connection, SourceColumnPlan plan, String predicate) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        CopyOut copyOut = pg.getCopyAPI().copyOut(plan.copyStatement(predicate));
        return new BinaryCopyReader(new CopyOutInputStream(copyOut, pg), plan);
    }

    /**
     * Advances to the next tuple; false once the trailer has been read and the stream has ended. When the stream is a
     * {@link CopyOutInputStream}, the rows read must equal the rows the server reports, or this throws.
     */
    public boolean next() throws IOException {
        if (closed) {
            throw new IOException("the binary COPY reader is closed");
        }
        if (finished) {
            return false;
        }
        if (!headerRead) {
            readHeader();
        }
        int fields = readInt16("tuple field count");
        if (fields == -1) {
            finish();
            return false;
        }
        if (fields != decoders.length) {
            throw new BinaryCopyFormatException("row " + (rowsRead + 1) + " has " + fields + " fields, the plan has "
                    + decoders.length);
        }
        for (int i = 0; i < fields; i++) {
            row[i] = readField(i);
        }
        rowsRead++;
        return true;
    }

    /** The current tuple's values, in plan order; the same array is refilled by every {@link #next()}. */
    public Object[] row() {
        return row;
    }

    public long rowsRead() {
        return rowsRead;
    }

    /** True once the trailer was read and the stream ended cleanly. */
    public boolean finished() {
        return finished;
    }

    /** The field buffer's size: bounded by the widest field, not by the number of rows (a test asserts it). */
    int bufferCapacity() {
        return buffer.length;
    }

    /** Closes the stream; a COPY still running is cancelled. */
    @Override
    public void close() throws IOException {
        closed = true;
        in.close();
    }

    private void readHeader() throws IOException {
        readFully(buffer, SIGNATURE.length, "signature");
        for (int i = 0; i < SIGNATURE.length; i++) {
            if (buffer[i] != SIGNATURE[i]) {
                throw new BinaryCopyFormatException("not a binary COPY stream: bad signature");
            }
        }
        int flags = readInt32("flags");
        if ((flags & CRITICAL_FLAGS) != 0) {
            throw new BinaryCopyFormatException("binary COPY flags 0x" + Integer.toHexString(flags)
                    + " announce a format this reader does not know");
        }
        int extension = readInt32("header extension length");
        if (extension < 0) {
            throw new BinaryCopyFormatException("negative header extension length " + extension);
        }
        // Extensions are for future formats; skip them through the buffer in bounded slices.
        while (extension > 0) {
            int slice = Math.min(extension, buffer.length);
            readFully(buffer, slice, "header extension");
            extension -= slice;
        }
        headerRead = true;
    }

    private Object readField(int index) throws IOException {
        int length = readInt32("field length");
        if (length == -1) {
            return null;
        }
        if (length < 0) {
            throw new BinaryCopyFormatException(where(index) + ": negative field length " + length);
        }
        if (length > buffer.length) {
            buffer = new byte[Math.max(length, Math.min(buffer.length * 2, Integer.MAX_VALUE - 8))];
        }
        readFully(buffer, length, "field");
        try {
            return decoders[index].decode(buffer, 0, length);
        } catch (BinaryCopyFormatException e) {
            throw new BinaryCopyFormatException(where(index) + ": " + e.getMessage());
        }
    }

    private void finish() throws IOException {
        if (in.read() != -1) {
            throw new BinaryCopyFormatException("data after the binary COPY trailer");
        }
        if (in instanceof CopyOutInputStream copy && copy.serverRowCount() != rowsRead) {
            throw new BinaryCopyFormatException("read " + rowsRead + " rows but the server reports "
                    + copy.serverRowCount());
        }
        finished = true;
    }

    private String where(int index) {
        return "row " + (rowsRead + 1) + " column \"" + columns.get(index).name() + "\" (" + columns.get(index).arrivingType().typname() + ")";
    }

    private int readInt16(String what) throws IOException {
        readFully(word, 2, what);
        return FixedWidthDecoders.int16(word, 0);
    }

    private int readInt32(String what) throws IOException {
        readFully(word, 4, what);
        return FixedWidthDecoders.int32(word, 0);
    }

    private void readFully(byte[] target, int length, String what) throws IOException {
        int done = 0;
        while (done < length) {
            int n = in.read(target, done, length - done);
            if (n < 0) {
                throw new BinaryCopyFormatException("binary COPY stream ended inside the " + what + " after " + rowsRead + " rows");
            }
            done += n;
        }
    }
}
