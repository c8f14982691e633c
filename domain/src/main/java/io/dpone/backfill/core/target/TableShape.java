package io.dpone.backfill.core.target;

import io.dpone.backfill.core.campaign.ColumnMapping;
import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.digest.Sha256;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A table's columns in ordinal order and, for a reviewed live target, its constraints and indexes (each as
 * {@code name: definition}); its digest detects drift between the shape recorded at preparation and now.
 */
public record TableShape(List<ColumnShape> columns, List<String> constraints) {
    public TableShape {
        columns = List.copyOf(columns);
        constraints = List.copyOf(constraints);
    }

    public TableShape(List<ColumnShape> columns) {
        this(columns, List.of());
    }

    public boolean exists() {
        return !columns.isEmpty();
    }

    public List<String> columnNames() {
        return columns.stream().map(ColumnShape::name).toList();
    }

    public java.util.Optional<ColumnShape> column(String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /**
     * The columns a load writes into this (target) table from {@code source}, in this table's order, each paired with
     * the source column that loads it under {@code mapping} (issue 27): every column but generated ones, which the
     * target computes itself, and those no source column loads.
     */
    public LoadColumns loadColumnsFrom(TableShape source, ColumnMapping mapping) {
        List<String> targets = columns.stream().filter(c -> !c.generated()).map(ColumnShape::name).toList();
        return mapping.pair(targets, source.columnNames());
    }

    /** Columns of this (target) table that {@code source} lacks and that the target cannot fill itself. */
    public List<String> requiredMissingIn(TableShape source) {
        return requiredMissingIn(source, ColumnMapping.SAME_NAMES);
    }

    /** The same under {@code mapping}: no source column loads them. */
    public List<String> requiredMissingIn(TableShape source, ColumnMapping mapping) {
        List<String> sourceColumns = source.columnNames();
        return columns.stream().filter(c -> !c.fillableByTarget() && mapping.sourceOf(c.name(), sourceColumns).isEmpty())
                .map(ColumnShape::name).toList();
    }

    public String digest() {
        String cols = columns.stream().map(c -> c.name() + "\u0000" + c.type() + "\u0000" + c.nullable() + "\u0000"
                        + Objects.toString(c.defaultExpression(), "") + "\u0000" + c.generated() + "\u0000" + c.identity())
                .collect(Collectors.joining("\n"));
        return Sha256.hex(constraints.isEmpty() ? cols : cols + "\n\u0001" + String.join("\n", constraints));
    }
}
