package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.core.reconcile.RecordKeyText;
import io.dpone.backfill.targets.mssql.types.Columns;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Published keys spilled to disk come back as the staged keys' rows, every key type and NULL included. */
class KeyRowSpillTest {
    @Test
    void keysOfEveryDigestibleTypeComeBackAsStagedKeyRowsWithTheirTextShaAndVersion() throws Exception {
        PassKey key = PassKey.of("[dbo].[t]", List.of(Columns.target("a", "smallint"), Columns.target("b", "int"),
                Columns.target("c", "bigint"), Columns.target("d", "nvarchar(40)"), Columns.target("e", "uniqueidentifier")));
        List<List<Object>> written = List.of(
                Arrays.asList((short) -3, 7, Long.MIN_VALUE, "a \"quoted\", (odd) ✓ 𝄞", UUID.randomUUID()),
                Arrays.asList((short) 0, null, 0L, "", UUID.randomUUID()));
        byte[] version = HexFormat.of().parseHex("00000000000007d1");
        List<Object[]> read = new ArrayList<>();
        try (KeyRowSpill spill = new KeyRowSpill(key)) {
            for (int i = 0; i < written.size(); i++) {
                spill.write(written.get(i), 40 + i, version);
            }
            assertThat(spill.rows()).isEqualTo(2);
            Iterator<Object[]> rows = spill.read();
            rows.forEachRemaining(read::add);
        }
        assertThat(read).hasSize(2);
        for (int i = 0; i < written.size(); i++) {
            Object[] row = read.get(i);
            String text = RecordKeyText.of(written.get(i));
            assertThat(Arrays.asList(row).subList(0, 5)).isEqualTo(written.get(i));
            assertThat(row[5]).isEqualTo(40 + i);
            assertThat(row[6]).isEqualTo(text);
            assertThat((byte[]) row[7]).isEqualTo(PassKey.sha(text));
            assertThat((byte[]) row[8]).isEqualTo(version);
        }
    }

    @Test
    void nothingWrittenReadsBackAsNoRows() throws Exception {
        PassKey key = PassKey.of("[dbo].[t]", List.of(Columns.target("id", "bigint")));
        try (KeyRowSpill spill = new KeyRowSpill(key)) {
            assertThat(spill.read().hasNext()).isFalse();
        }
    }
}
