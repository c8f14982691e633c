package io.dpone.backfill.targets.mssql.doctor;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The doctor's read of an inbound key's referencing values (no engine). */
class MssqlDoctorKeyValuesTest {
    @Test
    void distinctValuesAreReadAsTextOnlyFromRowsWhoseEveryKeyColumnIsSet() {
        assertThat(MssqlDoctorKeyValues.distinctSql("[dbo].[lines]", List.of("order_id", "line"), 100_001))
                .isEqualTo("SELECT DISTINCT TOP (100001) CONVERT(nvarchar(4000), r.[order_id]),"
                        + " CONVERT(nvarchar(4000), r.[line]) FROM [dbo].[lines] AS r"
                        + " WHERE r.[order_id] IS NOT NULL AND r.[line] IS NOT NULL");
    }
}
