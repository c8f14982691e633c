package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.source.SpecialValue;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The binary COPY framing, from hand-built byte streams: no server, every malformed shape refused by name. */
class PgBinaryCopyReaderTest {
    private static final SourceColumnPlan PLAN = new SourceColumnPlan("s", "t", List.of(
            new PlannedColumn("id", "integer", PlannedColumn.Kind.BASE, PgType.INT4, -1, "\"id\""),
            new PlannedColumn("name", "text", PlannedColumn.Kind.BASE, PgType.TEXT, -1, "\"name\"")));

    @Test
    void tuplesSplitAtEveryByteBoundaryDecodeIntoTheReusedRow() throws IOException {
        byte[] stream = new CopyStream().header().tuple(int4(1), text("ž😀")).tuple(int4(-2), null).trailer().bytes();

        try (BinaryCopyReader reader = new BinaryCopyReader(new OneByteAtATime(stream), PLAN)) {
            assertThat(reader.next()).isTrue();
            Object[] row = reader.row();
            assertThat(row).containsExactly(1, "ž😀");
            assertThat(reader.next()).isTrue();
            assertThat(reader.row()).isSameAs(row).containsExactly(-2, null);
            assertThat(reader.next()).isFalse();
            assertThat(reader.rowsRead()).isEqualTo(2);
            assertThat(reader.finished()).isTrue();
        }
    }

    @Test
    void aHeaderExtensionIsSkipped() throws IOException {
        byte[] stream = new CopyStream().header(0, new byte[1000]).tuple(int4(5), text("x")).trailer().bytes();

        BinaryCopyReader reader = new BinaryCopyReader(new ByteArrayInputStream(stream), PLAN);

        assertThat(reader.next()).isTrue();
        assertThat(reader.row()).containsExactly(5, "x");
    }

    @Test
    void aStreamWithoutTheBinarySignatureIsRefused() {
        byte[] text = "1\tx\n\\.\n".getBytes(StandardCharsets.US_ASCII);

        assertThatThrownBy(() -> new BinaryCopyReader(new ByteArrayInputStream(text), PLAN).next())
                .isInstanceOf(BinaryCopyFormatException.class).hasMessageContaining("signature");
    }

    @Test
    void flagsAnnouncingOidsOrAnUnknownFormatAreRefused() {
        byte[] withOids = new CopyStream().header(1 << 16, new byte[0]).trailer().bytes();

        assertThatThrownBy(() -> new BinaryCopyReader(new ByteArrayInputStream(withOids), PLAN).next())
                .isInstanceOf(BinaryCopyFormatException.class).hasMessageContaining("flags 0x10000");
    }

    @Test
    void aStreamCutInsideAFieldIsRefusedSayingWhere() throws IOException {
        byte[] whole = new CopyStream().header().tuple(int4(1), text("abc")).tuple(int4(2), text("defgh")).trailer().bytes();
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 6);
        BinaryCopyReader reader = new BinaryCopyReader(new ByteArrayInputStream(cut), PLAN);

        assertThat(reader.next()).isTrue();
        assertThatThrownBy(reader::next).isInstanceOf(BinaryCopyFormatException.class)
                .hasMessageContaining("ended inside the field after 1 rows");
    }

    @Test
    void aStreamEndingWithoutTheTrailerIsRefused() throws IOException {
        byte[] noTrailer = new CopyStream().header().tuple(int4(1), text("abc")).bytes();
        BinaryCopyReader reader = new BinaryCopyReader(new ByteArrayInputStream(noTrailer), PLAN);

        assertThat(reader.next()).isTrue();
        assertThatThrownBy(reader::next).isInstanceOf(BinaryCopyFormatException.class)
                .hasMessageContaining("ended inside the tuple field count");
    }

    @Test
    void aTupleWithAnotherFieldCountThanThePlanIsRefused() {
        byte[] stream = new CopyStream().header().tuple(int4(1)).trailer().bytes();

        assertThatThrownBy(() -> new BinaryCopyReader(new ByteArrayInputStream(stream), PLAN).next())
                .isInstanceOf(BinaryCopyFormatException.class).hasMessageContaining("row 1 has 1 fields, the plan has 2");
    }

    @Test
    void bytesAfterTheTrailerAreRefused() {
        byte[] stream = new CopyStream().header().trailer().raw(new byte[] {0}).bytes();

        assertThatThrownBy(() -> new BinaryCopyReader(new ByteArrayInputStream(stream), PLAN).next())
                .isInstanceOf(BinaryCopyFormatException.class).hasMessageContaining("after the binary COPY trailer");
    }

    @Test
    void aFieldOfTheWrongWidthNamesItsRowAndColumn() {
        byte[] stream = new CopyStream().header().tuple(int4(1), text("a")).tuple(new byte[] {0, 1}, text("b")).trailer().bytes();

        assertThatThrownBy(() -> {
            BinaryCopyReader reader = new BinaryCopyReader(new ByteArrayInputStream(stream), PLAN);
            while (reader.next()) {
                // the second row is malformed
            }
        }).isInstanceOf(BinaryCopyFormatException.class)
                .hasMessage("row 2 column \"id\" (int4): int4 field of 2 bytes, expected 4");
    }

    @Test
    void aClosedReaderRefusesToAdvance() throws IOException {
        BinaryCopyReader reader = new BinaryCopyReader(new ByteArrayInputStream(new CopyStream().header().trailer().bytes()), PLAN);
        reader.close();

        assertThatThrownBy(reader::next).isInstanceOf(IOException.class).hasMessageContaining("closed");
    }

    @Test
    void closingTheReaderClosesItsStream() throws IOException {
        boolean[] closed = {false};
        InputStream in = new ByteArrayInputStream(new CopyStream().header().trailer().bytes()) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };

        new BinaryCopyReader(in, PLAN).close();

        assertThat(closed[0]).isTrue();
    }

    @Test
    void jsonbWithoutItsVersionByteIsRefused() {
        assertThatThrownBy(() -> PgType.JSONB.decoder().decode(new byte[] {'{', '}'}, 0, 2))
                .isInstanceOf(BinaryCopyFormatException.class).hasMessageContaining("version byte 1");
    }

    @Test
    void numericDigitsAreCombinedWithTheirWeightAndKeepTheDisplayScale() throws IOException {
        // 12345678.9000: digits 1234 5678 9000, weight 1, dscale 4
        byte[] field = {0, 3, 0, 1, 0, 0, 0, 4, 0x04, (byte) 0xD2, 0x16, 0x2E, 0x23, 0x28};

        assertThat(PgType.NUMERIC.decoder().decode(field, 0, field.length)).hasToString("12345678.9000");
    }

    @Test
    void numericDigitsBeyondTheDisplayScaleAreRefusedRatherThanRounded() {
        // 0.1234 sent with dscale 2 would silently lose 34
        byte[] field = {0, 1, (byte) 0xff, (byte) 0xff, 0, 0, 0, 2, 0x04, (byte) 0xD2};

        assertThatThrownBy(() -> PgType.NUMERIC.decoder().decode(field, 0, field.length))
                .isInstanceOf(BinaryCopyFormatException.class).hasMessageContaining("beyond its display scale 2");
    }

    @Test
    void renderingRefusesAValueOfTheWrongJavaType() {
        assertThatThrownBy(() -> PgTextRendering.render(PgType.INT4, "1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("int4 value cannot be a String");
        assertThatThrownBy(() -> PgTextRendering.render(PgType.NUMERIC, SpecialValue.END_OF_DAY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(PgTextRendering.render(PgType.TEXT, null)).isNull();
    }

    private static byte[] int4(int value) {
        return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }

    private static byte[] text(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    /** Builds binary COPY bytes; a null field is written as length -1. */
    private static final class CopyStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(bytes);

        CopyStream header() {
            return header(0, new byte[0]);
        }

        CopyStream header(int flags, byte[] extension) {
            try {
                out.write(new byte[] {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0});
                out.writeInt(flags);
                out.writeInt(extension.length);
                out.write(extension);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return this;
        }

        CopyStream tuple(byte[]... fields) {
            try {
                out.writeShort(fields.length);
                for (byte[] field : fields) {
                    if (field == null) {
                        out.writeInt(-1);
                    } else {
                        out.writeInt(field.length);
                        out.write(field);
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return this;
        }

        CopyStream trailer() {
            try {
                out.writeShort(-1);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return this;
        }

        CopyStream raw(byte[] extra) {
            bytes.writeBytes(extra);
            return this;
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }

    /** Hands out one byte per read: message boundaries that never line up with fields. */
    private static final class OneByteAtATime extends FilterInputStream {
        OneByteAtATime(byte[] bytes) {
            super(new ByteArrayInputStream(bytes));
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return super.read(b, off, Math.min(len, 1));
        }
    }
}
