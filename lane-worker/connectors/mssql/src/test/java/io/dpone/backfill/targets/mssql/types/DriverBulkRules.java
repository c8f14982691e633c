package io.dpone.backfill.targets.mssql.types;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What mssql-jdbc 13.2.1's SQLServerBulkCopy does with one value an ISQLServerBulkData hands it, written down from
 * its source (com/microsoft/sqlserver/jdbc/SQLServerBulkCopy.java, Util.java, IOBuffer.java of the
 * mssql-jdbc-13.2.1.jre11 sources jar), so the contract can be checked without a server:
 * <ul>
 * <li>writeColumnToTdsWriter casts the value by the reported JDBC type: {@code (int)} for INTEGER, {@code (long)} for
 * BIGINT, {@code (Boolean)} for BIT, {@code (double)} for DOUBLE, {@code (float)} for REAL, {@code (BigDecimal)} for
 * DECIMAL/NUMERIC, {@code byte[]} for VARBINARY, {@code toString()} for VARCHAR/NVARCHAR/GUID; a SMALLINT is read as
 * {@code ((Number) v).shortValue()}.</li>
 * <li>DECIMAL: it refuses a value whose length by Util.getValueLengthBaseOnJavaType exceeds the reported precision
 * (R_valueOutOfRange), then IOBuffer.writeBigDecimal sets the scale to the reported one with HALF_UP: a value with
 * more places would be rounded silently.</li>
 * <li>With sendTemporalDataTypesAsStringForBulkCopy (the default) and an ISQLServerBulkData source, DATE, TIME,
 * TIMESTAMP, DATETIME and DATETIMEOFFSET become VARCHAR: INSERT BULK declares {@code varchar(precision)}
 * (getDestTypeFromSrcType), the TDS type info BIGVARCHAR with length {@code precision} (writeTypeInfo) and the value
 * is {@code toString()}'s bytes with their own length (writeColumnToTdsWriter): SQL Server refuses a value longer
 * than the declared length (4815, "Received an invalid column length from the bcp client").</li>
 * <li>VARCHAR/NVARCHAR/VARBINARY above 8000 bytes / 4000 characters are streamed as (max), else sent with a 2-byte
 * length within the declared one; validateStringBinaryLengths refuses a String longer (String.length()) or a byte[]
 * longer than the destination column's precision.</li>
 * <li>GUID is declared {@code char(precision)} and written as its text.</li>
 * </ul>
 */
public final class DriverBulkRules {
    /** DataTypes.SHORT_VARTYPE_MAX_BYTES and SHORT_VARTYPE_MAX_CHARS: above these the driver streams as (max). */
    static final int SHORT_VARTYPE_MAX_BYTES = 8000;
    static final int SHORT_VARTYPE_MAX_CHARS = 4000;
    /** TDS.MAX_FRACTIONAL_SECONDS_SCALE and SQL Server's decimal limit. */
    static final int MAX_DECIMAL_PRECISION = 38;

    private DriverBulkRules() {
    }

    /** Every rule the emitted value breaks, worded; empty when the driver and the server take it as reported. */
    public static List<String> violations(MssqlBulkColumn declared, MssqlColumn target, Object emitted) {
        List<String> broken = new ArrayList<>();
        if (emitted == null) {
            return broken;
        }
        switch (declared.jdbcType()) {
            case Types.SMALLINT -> expect(broken, emitted, Short.class);
            case Types.INTEGER -> expect(broken, emitted, Integer.class);
            case Types.BIGINT -> expect(broken, emitted, Long.class);
            case Types.BIT -> expect(broken, emitted, Boolean.class);
            case Types.DOUBLE -> expect(broken, emitted, Double.class);
            case Types.REAL -> expect(broken, emitted, Float.class);
            case Types.DECIMAL, Types.NUMERIC -> decimal(broken, declared, target, emitted);
            case Types.NVARCHAR -> nvarchar(broken, declared, target, emitted);
            case Types.VARCHAR -> varchar(broken, declared, target, emitted);
            case Types.VARBINARY -> varbinary(broken, declared, target, emitted);
            case microsoft.sql.Types.GUID -> guid(broken, declared, emitted);
            case Types.DATE, Types.TIME, Types.TIMESTAMP, microsoft.sql.Types.DATETIME,
                    microsoft.sql.Types.DATETIMEOFFSET -> temporalText(broken, declared, emitted);
            default -> broken.add("JDBC type " + declared.jdbcType() + " is not one the adapter should report");
        }
        return broken;
    }

    private static void expect(List<String> broken, Object emitted, Class<?> type) {
        if (!type.isInstance(emitted)) {
            broken.add("the driver casts to " + type.getSimpleName() + ", got " + emitted.getClass().getSimpleName());
        }
    }

    private static void decimal(List<String> broken, MssqlBulkColumn declared, MssqlColumn target, Object emitted) {
        if (!(emitted instanceof BigDecimal value)) {
            expect(broken, emitted, BigDecimal.class);
            return;
        }
        if (declared.precision() > MAX_DECIMAL_PRECISION || declared.scale() > declared.precision()) {
            broken.add("decimal(" + declared.precision() + "," + declared.scale() + ") is not a SQL Server decimal");
        }
        if (declared.precision() != target.precision() || declared.scale() != target.scale()) {
            broken.add("reported decimal(" + declared.precision() + "," + declared.scale() + ") for target "
                    + target.declaration());
        }
        if (declared.precision() < driverDecimalLength(value)) {
            broken.add("R_valueOutOfRange: " + value + " is longer than precision " + declared.precision());
        }
        BigDecimal sent = value.setScale(declared.scale(), RoundingMode.HALF_UP);
        if (sent.compareTo(value) != 0) {
            broken.add("writeBigDecimal rounds " + value + " to " + sent);
        }
        if (sent.precision() - sent.scale() > declared.precision() - declared.scale()) {
            broken.add(sent + " overflows decimal(" + declared.precision() + "," + declared.scale() + ")");
        }
    }

    /** Util.getValueLengthBaseOnJavaType for a BigDecimal with no precision given, as 13.2.1 computes it. */
    static int driverDecimalLength(BigDecimal value) {
        if (value.intValue() == 0) {
            String s = ("" + value).replaceAll("\\-", "");
            s = s.startsWith("0.") ? s.replaceAll("0\\.", "") : s.replaceAll("\\.", "");
            return s.length();
        }
        if (("" + value).contains("E")) {
            String s = new java.text.DecimalFormat("###.#####").format(value);
            return s.replaceAll("\\.", "").replaceAll("\\-", "").length();
        }
        return value.precision();
    }

    private static void nvarchar(List<String> broken, MssqlBulkColumn declared, MssqlColumn target, Object emitted) {
        if (!(emitted instanceof String text)) {
            expect(broken, emitted, String.class);
            return;
        }
        boolean streamed = declared.precision() > SHORT_VARTYPE_MAX_CHARS;
        if (!streamed && text.length() > declared.precision()) {
            broken.add(text.length() + " UTF-16 units sent as nvarchar(" + declared.precision() + ")");
        }
        if (!target.isMax() && text.length() > target.declaredLength()) {
            broken.add("validateStringBinaryLengths: " + text.length() + " characters into " + target.declaration());
        }
        if (!target.isMax() && declared.precision() != target.declaredLength()) {
            broken.add("reported length " + declared.precision() + " for " + target.declaration());
        }
    }

    private static void varchar(List<String> broken, MssqlBulkColumn declared, MssqlColumn target, Object emitted) {
        if (!(emitted instanceof String text)) {
            expect(broken, emitted, String.class);
            return;
        }
        // The driver encodes with the destination collation's charset (SQLCollation.getCharset).
        Charset charset = target.hasUtf8Collation() ? StandardCharsets.UTF_8 : Charset.forName("windows-1252");
        if (!charset.newEncoder().canEncode(text)) {
            broken.add("the text has characters " + charset + " cannot encode (they would become '?')");
        }
        int bytes = text.getBytes(charset).length;
        boolean streamed = declared.precision() > SHORT_VARTYPE_MAX_BYTES;
        if (!streamed && bytes > declared.precision()) {
            broken.add(bytes + " bytes sent as varchar(" + declared.precision() + ")");
        }
        if (!target.isMax() && (text.length() > target.declaredLength() || bytes > target.declaredLength())) {
            broken.add(text.length() + " characters, " + bytes + " bytes into " + target.declaration());
        }
        if (!target.isMax() && declared.precision() != target.declaredLength()) {
            broken.add("reported length " + declared.precision() + " for " + target.declaration());
        }
    }

    private static void varbinary(List<String> broken, MssqlBulkColumn declared, MssqlColumn target, Object emitted) {
        if (!(emitted instanceof byte[] bytes)) {
            expect(broken, emitted, byte[].class);
            return;
        }
        boolean streamed = declared.precision() > SHORT_VARTYPE_MAX_BYTES;
        if (!streamed && bytes.length > declared.precision() || !target.isMax() && bytes.length > target.declaredLength()) {
            broken.add(bytes.length + " bytes into " + target.declaration() + " reported as " + declared.precision());
        }
    }

    private static void guid(List<String> broken, MssqlBulkColumn declared, Object emitted) {
        if (!(emitted instanceof String text)) {
            expect(broken, emitted, String.class);
            return;
        }
        if (text.length() > declared.precision()) {
            broken.add(text.length() + " characters sent as char(" + declared.precision() + ")");
        }
        try {
            UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            broken.add("not a uniqueidentifier literal: " + text);
        }
    }

    private static void temporalText(List<String> broken, MssqlBulkColumn declared, Object emitted) {
        if (!(emitted instanceof String text)) {
            broken.add("a temporal value is sent as toString(); expected the adapter's own text, got "
                    + emitted.getClass().getSimpleName());
            return;
        }
        if (!StandardCharsets.US_ASCII.newEncoder().canEncode(text)) {
            broken.add("temporal text must be ASCII: " + text);
        }
        if (text.length() > declared.precision()) {
            broken.add("4815: " + text.length() + " characters '" + text + "' sent as varchar(" + declared.precision() + ")");
        }
        if (declared.precision() > SHORT_VARTYPE_MAX_BYTES || declared.precision() < 1) {
            broken.add("varchar(" + declared.precision() + ") is not a short varchar");
        }
    }
}
