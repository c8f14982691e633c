package io.dpone.backfill.targets.mssql.reconcile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One row of the source's text {@code COPY} format (the rows a pass's source streams, {@code RowEncoding
 * POSTGRES_COPY_TEXT}) split into its fields: tab-separated, {@code \N} for NULL, backslash escapes ({@code \b \f
 * \n \r \t \v}, octal {@code \ooo}, hex {@code \xhh}, any other character as itself) undone on the bytes, then read
 * as UTF-8.
 */
final class CopyTextFields {
    private CopyTextFields() {
    }

    static String[] split(byte[] row) {
        int end = row.length;
        if (end > 0 && row[end - 1] == '\n') {
            end--;
        }
        List<String> fields = new ArrayList<>();
        ByteArrayOutputStream field = new ByteArrayOutputStream();
        boolean nul = false;
        for (int i = 0; i <= end; i++) {
            if (i == end || row[i] == '\t') {
                fields.add(nul ? null : field.toString(StandardCharsets.UTF_8));
                field.reset();
                nul = false;
                continue;
            }
            byte b = row[i];
            if (b != '\\' || i + 1 >= end) {
                field.write(b);
                continue;
            }
            byte e = row[++i];
            switch (e) {
                case 'N' -> nul = true;
                case 'b' -> field.write('\b');
                case 'f' -> field.write('\f');
                case 'n' -> field.write('\n');
                case 'r' -> field.write('\r');
                case 't' -> field.write('\t');
                case 'v' -> field.write(0x0B);
                case 'x' -> {
                    int value = 0;
                    int digits = 0;
                    while (digits < 2 && i + 1 < end && Character.digit(row[i + 1], 16) >= 0) {
                        value = value * 16 + Character.digit(row[++i], 16);
                        digits++;
                    }
                    field.write(digits == 0 ? 'x' : value);
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int value = e - '0';
                        for (int digits = 1; digits < 3 && i + 1 < end && row[i + 1] >= '0' && row[i + 1] <= '7'; digits++) {
                            value = value * 8 + (row[++i] - '0');
                        }
                        field.write(value);
                    } else {
                        field.write(e);
                    }
                }
            }
        }
        return fields.toArray(new String[0]);
    }
}
