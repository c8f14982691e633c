package io.dpone.backfill.core.target;

import io.dpone.backfill.core.digest.Sha256;

import java.util.List;
import java.util.stream.Collectors;

/** A table's columns in ordinal order; its digest detects drift between the prepared shape and now. */
public record TableShape(List<ColumnShape> columns) {
    public TableShape {
        columns = List.copyOf(columns);
    }

    public boolean exists() {
        return !columns.isEmpty();
    }

    public List<String> columnNames() {
        return columns.stream().map(ColumnShape::name).toList();
    }

    public String digest() {
        return Sha256.hex(columns.stream().map(c -> c.name() + "\u0000" + c.type() + "\u0000" + c.nullable())
                .collect(Collectors.joining("\n")));
    }
}
