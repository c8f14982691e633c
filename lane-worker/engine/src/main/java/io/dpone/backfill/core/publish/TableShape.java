package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.campaign.ColumnMapping;
import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.digest.Sha256;
import io.dpone.backfill.core.campaign.IdentifierComparison;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A table's columns in ordinal order and, for a reviewed live target, its constraints and indexes (each as
 * {@code name: definition}); its digest detects drift between the shape recorded at preparation and now. {@code names}
 * is how its database compares identifiers (issue 36): a column is found, and a mapping pairs target columns, as that
 * database would resolve the name. It is not part of the digest.
 */
public record TableShape(List<ColumnShape> columns, List<String> constraints, IdentifierComparison names) {
    public TableShape {
        columns = List.copyOf(columns);
        constraints = List.copyOf(constraints);
        Objects.requireNonNull(names, "names");
    }

    public TableShape(List<ColumnShape> columns, List<String> constraints) {
        this(columns, constraints, IdentifierComparison.EXACT);
    }

    public TableShape(List<ColumnShape> columns) {
        this(columns, List.of());
    }

    /** The same shape, its names compared as {@code names} says. */
    public TableShape comparedAs(IdentifierComparison names) {
        return new TableShape(columns, constraints, names);
    }

    public boolean exists() {
        return !columns.isEmpty();
    }

    public List<String> columnNames() {
        return columns.stream().map(ColumnShape::name).toList();
    }

    public java.util.Optional<ColumnShape> column(String name) {
        return columns.stream().filter(c -> names.same(c.name(), name)).findFirst();
    }

    /**
     * The columns a load writes into this (target) table from {@code source}, in this table's order, each paired with
     * the source column that loads it under {@code mapping} (issue 27): every column but generated ones, which the
     * target computes itself, and those no source column loads.
     */
    public LoadColumns loadColumnsFrom(TableShape source, ColumnMapping mapping) {
        List<String> targets = columns.stream().filter(c -> !c.generated()).map(ColumnShape::name).toList();
        return mapping.under(names).pair(targets, source.columnNames());
    }

    /** Columns of this (target) table that {@code source} lacks and that the target cannot fill itself. */
    public List<String> requiredMissingIn(TableShape source) {
        return requiredMissingIn(source, ColumnMapping.SAME_NAMES);
    }

    /** The same under {@code mapping}: no source column loads them. */
    public List<String> requiredMissingIn(TableShape source, ColumnMapping mapping) {
        List<String> sourceColumns = source.columnNames();
        ColumnMapping here = mapping.under(names);
        return columns.stream().filter(c -> !c.fillableByTarget() && here.sourceOf(c.name(), sourceColumns).isEmpty())
                .map(ColumnShape::name).toList();
    }

    public String digest() {
        String cols = columns.stream().map(c -> c.name() + "\u0000" + c.type() + "\u0000" + c.nullable() + "\u0000"
                        + Objects.toString(c.defaultExpression(), "") + "\u0000" + c.generated() + "\u0000" + c.identity())
                .collect(Collectors.joining("\n"));
        return Sha256.hex(constraints.isEmpty() ? cols : cols + "\n\u0001" + String.join("\n", constraints));
    }
}
