package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.core.reconcile.RecordKeyText;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.UUID;

/**
 * Published keys a pass read, waiting on disk until its session is free to stage them (ADR 0056): the published
 * table is read on the session that stages, and a bulk copy cannot start while that read is open. A pass holds no
 * key in memory, however many differ. Rows come back in the staged keys' shape: the key's values, range, key text,
 * its SHA-256 and the row version read.
 */
final class KeyRowSpill implements AutoCloseable {
    private final PassKey key;
    private final Path file;
    private final DataOutputStream out;
    private long rows;

    KeyRowSpill(PassKey key) throws IOException {
        this.key = key;
        this.file = Files.createTempFile("dpone-reconcile-keys-", ".bin");
        this.out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
    }

    long rows() {
        return rows;
    }

    void write(List<Object> values, int range, byte[] version) throws IOException {
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            out.writeBoolean(value == null);
            if (value != null) {
                switch (key.family(i)) {
                    case INT16 -> out.writeShort((Short) value);
                    case INT32 -> out.writeInt((Integer) value);
                    case INT64 -> out.writeLong((Long) value);
                    case UUID -> {
                        UUID uuid = (UUID) value;
                        out.writeLong(uuid.getMostSignificantBits());
                        out.writeLong(uuid.getLeastSignificantBits());
                    }
                    default -> {
                        byte[] text = ((String) value).getBytes(StandardCharsets.UTF_8);
                        out.writeInt(text.length);
                        out.write(text);
                    }
                }
            }
        }
        out.writeInt(range);
        out.write(version);
        rows++;
    }

    /** The rows written, in order; ends the writing. */
    Iterator<Object[]> read() throws IOException {
        out.close();
        DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
        return new Iterator<>() {
            private long left = rows;

            @Override
            public boolean hasNext() {
                if (left == 0) {
                    close(in);
                }
                return left > 0;
            }

            @Override
            public Object[] next() {
                if (left == 0) {
                    throw new NoSuchElementException();
                }
                left--;
                try {
                    return row(in);
                } catch (IOException e) {
                    close(in);
                    throw new UncheckedIOException("reading back the published keys a pass spilled to " + file, e);
                }
            }
        };
    }

    private Object[] row(DataInputStream in) throws IOException {
        int n = key.columns().size();
        List<Object> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (in.readBoolean()) {
                values.add(null);
                continue;
            }
            values.add(switch (key.family(i)) {
                case INT16 -> in.readShort();
                case INT32 -> in.readInt();
                case INT64 -> in.readLong();
                case UUID -> new UUID(in.readLong(), in.readLong());
                default -> {
                    byte[] text = new byte[in.readInt()];
                    in.readFully(text);
                    yield new String(text, StandardCharsets.UTF_8);
                }
            });
        }
        int range = in.readInt();
        byte[] version = new byte[8];
        in.readFully(version);
        String text = RecordKeyText.of(values);
        Object[] row = new Object[n + 4];
        for (int i = 0; i < n; i++) {
            row[i] = values.get(i);
        }
        row[n] = range;
        row[n + 1] = text;
        row[n + 2] = PassKey.sha(text);
        row[n + 3] = version;
        return row;
    }

    private static void close(DataInputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
        Files.deleteIfExists(file);
    }
}
