package io.dpone.backfill.postgres;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.postgres.PostgresCatalog.Column;

import java.util.List;
import java.util.Optional;

/**
 * Every target column against the source: present with a compatible type ({@link PostgresDoctorTypes}); a
 * target column missing in the source must be fillable (nullable, a default, identity or generated).
 */
final class PostgresDoctorColumns {
    private PostgresDoctorColumns() {
    }

    static void check(List<Column> source, List<Column> target, List<Finding> findings) {
        int before = findings.size();
        for (Column column : target) {
            Optional<Column> from = PostgresDoctorSource.find(source, column.name());
            if (column.isGenerated()) {
                continue; // Computed by the target from other columns; never loaded.
            }
            if (from.isEmpty()) {
                missingInSource(column, findings);
                continue;
            }
            if (!PostgresDoctorTypes.compatible(from.get().type(), column.type())) {
                findings.add(Finding.error("target.column.type-incompatible", "column " + column.name() + " is "
                        + from.get().type() + " in the source but " + column.type() + " in the target: values could"
                        + " be rejected or changed", "Align the target column's type with the source (the same type"
                        + " or a widening such as integer to bigint or varchar(n) to text) in the reviewed target."));
            } else if (column.notNull() && !from.get().notNull()) {
                findings.add(Finding.warning("target.column.nullability", "column " + column.name()
                        + " is NOT NULL in the target but allows NULL in the source: a NULL fails its chunk",
                        "Make sure the source holds no NULLs in this column, or allow NULL in the target."));
            }
        }
        if (findings.size() == before) {
            findings.add(Finding.ok("target.columns.compatible", "every target column is loadable from the source"));
        }
    }

    private static void missingInSource(Column column, List<Finding> findings) {
        if (column.notNull() && !column.hasDefault() && !column.isIdentity()) {
            findings.add(Finding.error("target.column.required-missing-in-source", "target column " + column.name()
                    + " is NOT NULL without a default and does not exist in the source: every row would fail",
                    "Add a default to the target column, allow NULL, or add the column to the source."));
        } else {
            findings.add(Finding.warning("target.column.missing-in-source", "target column " + column.name()
                    + " does not exist in the source: loaded rows get its default (or NULL)",
                    "Confirm that the default is what the published table should hold, or add the column to the source."));
        }
    }
}
