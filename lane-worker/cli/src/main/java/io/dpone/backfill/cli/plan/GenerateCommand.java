package io.dpone.backfill.cli.plan;

import io.dpone.backfill.connect.CampaignConnections;
import io.dpone.backfill.core.campaign.ColumnNaming;
import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.generate.CampaignFileText;
import io.dpone.backfill.core.campaign.PublicationGroupSpec;
import io.dpone.backfill.core.generate.PairedTable;
import io.dpone.backfill.core.generate.SchemaCatalog;
import io.dpone.backfill.core.generate.SchemaPairing;
import io.dpone.backfill.core.generate.UnpairedTable;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.core.publish.TargetCatalog;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.source.SourceAdapter;
import io.dpone.backfill.targets.TargetAdapter;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code backfill generate}: one campaign file per table pair of a source and a target schema (issue 27), written in
 * publication order, ready to review and apply; tables it cannot pair are listed with why. Reads both catalogs and
 * the source's key bounds; changes nothing.
 */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = {"Write one campaign file per table of a schema, creating nothing in either database.",
                "Pairs source and target tables and columns under --naming, takes the unique key from the source's"
                        + " primary key, sizes the chunks from the table, and numbers the files in publication order"
                        + " (every table after the tables its foreign keys reference). Lists the tables it cannot pair.",
                "Exit 0: files written; 2: nothing could be paired or a bad option."})
public final class GenerateCommand implements Callable<Integer> {
    @Option(names = "--source-secret", required = true, paramLabel = "NAME",
            description = "Name of the source connection Secret the campaigns name (resolved from --secrets or the environment).")
    String sourceSecret;

    @Option(names = "--target-secret", required = true, paramLabel = "NAME", description = "Name of the target connection Secret.")
    String targetSecret;

    @Option(names = "--target-type", defaultValue = "postgres", description = "The target's type, as spec.target.type (default postgres).")
    String targetType;

    @Option(names = "--source-type", defaultValue = "postgres", description = "The source's type, as spec.source.type (default postgres).")
    String sourceType;

    @Option(names = "--source-schema", defaultValue = "public", description = "Source schema (default public).")
    String sourceSchema;

    @Option(names = "--target-schema", description = "Target schema (default: the target type's default schema).")
    String targetSchema;

    @Option(names = "--naming", defaultValue = "exact",
            description = "How target tables and columns are named after source ones: exact, case-insensitive,"
                    + " snake-to-pascal or snake-to-camel (default exact).")
    String naming;

    @Option(names = "--prefix", description = "Prefix of backfillIds and resource names (default: the source schema).")
    String prefix;

    @Option(names = "--group", paramLabel = "NAME", description = {"The publication group every campaign names, so all"
            + " publish in one transaction once all have validated (default: the prefix as a DNS label).",
            "A group is how tables in a foreign-key cycle publish at all."})
    String group;

    @Option(names = "--no-group", description = "Write campaigns that publish one at a time, in file order.")
    boolean noGroup;

    @Option(names = "--parallel-workers", defaultValue = "4", description = "Lanes per campaign (default 4).")
    int parallelWorkers;

    @Option(names = "--secrets", paramLabel = "FILE",
            description = "Kubernetes Secret manifest(s) holding the two connections (repeatable); else BACKFILL_SOURCE_... and BACKFILL_TARGET_... from the environment.")
    List<Path> secretFiles = new ArrayList<>();

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory the campaign files are written to.")
    Path out;

    @Override
    public Integer call() throws Exception {
        ColumnNaming rule = ColumnNaming.fromWire(naming);
        TargetType type = TargetType.fromWireName(targetType).orElse(null);
        SourceType from = SourceType.fromWireName(sourceType).orElse(null);
        if (rule == null || type == null) {
            System.err.println("backfill generate: " + (rule == null ? "--naming must be exact, case-insensitive,"
                    + " snake-to-pascal or snake-to-camel, not " + naming : "--target-type must be one of "
                    + TargetType.wireNames() + ", not " + targetType));
            return ExitCodes.INVALID;
        }
        if (from == null) {
            System.err.println("backfill generate: --source-type must be one of " + SourceType.wireNames() + ", not "
                    + sourceType);
            return ExitCodes.INVALID;
        }
        SourceAdapter sourceAdapter = Connectors.source(from);
        TargetAdapter adapter = Connectors.target(type);
        String toSchema = targetSchema != null ? targetSchema : type.defaultSchema();
        SchemaPairing pairing;
        try (Connection source = CampaignConnections.resolve(CampaignConnections.SOURCE, sourceSecret, secretFiles,
                System.getenv(), sourceAdapter.endpoint()).open("backfill-generate-source");
             Connection target = CampaignConnections.resolve(CampaignConnections.TARGET, targetSecret, secretFiles,
                     System.getenv(), adapter.endpoint()).open("backfill-generate-target")) {
            SchemaCatalog targets = adapter.schemaCatalog(target);
            TargetCatalog catalog = adapter.catalog(target);
            Map<String, TableShape> shapes = new TreeMap<>();
            for (String table : targets.tables(toSchema)) {
                shapes.put(table, catalog.liveShape(toSchema, table));
            }
            pairing = SchemaPairing.of(sourceAdapter.tables(source, sourceSchema), shapes,
                    targets.references(toSchema), rule, targets.names());
        }
        List<PairedTable> paired = pairing.paired();
        String filePrefix = prefix != null ? prefix : sourceSchema;
        CampaignFileText.Group publicationGroup = null;
        if (!noGroup && paired.size() >= 2) {
            if (paired.size() > PublicationGroupSpec.MAX_MEMBERS) {
                System.err.println("backfill generate: " + paired.size() + " tables exceed a group's "
                        + PublicationGroupSpec.MAX_MEMBERS + " members: the campaigns publish one at a time");
            } else {
                publicationGroup = new CampaignFileText.Group(group != null ? group : CampaignFileText.groupName(filePrefix),
                        paired.stream().map(PairedTable::target).toList());
            }
        }
        CampaignFileText.Settings settings = new CampaignFileText.Settings(filePrefix,
                sourceSecret, sourceSchema, type.wireName(), targetSecret, toSchema, rule, parallelWorkers, publicationGroup);
        Files.createDirectories(out);
        System.out.printf(Locale.ROOT, "generate: %s.* -> %s.* (%s), %d table(s) paired, %d not paired%n", sourceSchema,
                toSchema, rule.wireName(), paired.size(), pairing.unpaired().size());
        for (PairedTable table : paired) {
            String text = CampaignFileText.render(table, paired.size(), settings);
            CampaignReader.parse(text); // what is written must read back as a valid campaign
            Path file = out.resolve(CampaignFileText.fileName(table, paired.size()));
            Files.writeString(file, text);
            // Why this chunk kind (issue 41) closes the line, after what the columns before it show.
            System.out.printf(Locale.ROOT, "  %2d  %-34s %-9s x%-5d key %-24s %s%s  (%s: %s)%n", table.order(),
                    table.source().name() + " -> " + table.target(), table.chunks().kind(), table.chunks().buckets(),
                    String.join(",", table.source().primaryKey()), file.getFileName(),
                    table.after().isEmpty() ? "" : "  after " + String.join(", ", table.after()),
                    table.chunks().kind(), table.chunks().why());
        }
        if (!pairing.unpaired().isEmpty()) {
            System.out.println("not paired:");
            for (UnpairedTable u : pairing.unpaired()) {
                System.out.println("  " + u.side() + " " + u.table() + ": " + u.why());
            }
        }
        if (publicationGroup != null) {
            System.out.println("publication group " + publicationGroup.name() + ": all " + paired.size() + " campaigns"
                    + " publish in one transaction once every one has validated");
            System.out.println("next: review the files, then kubectl apply them all; or backfill run each file (each"
                    + " stops validated with exit code 9, the last one publishes the group), then backfill run the"
                    + " earlier ones again to hand them off");
        } else {
            if (paired.stream().anyMatch(t -> !t.cycle().isEmpty())) {
                System.out.println("tables in a foreign-key cycle cannot publish one at a time: their files say which;"
                        + " generate them with a group (leave out --no-group)");
            }
            System.out.println("next: review the files, then run them in file order (each publishes before the next"
                    + " starts), or kubectl apply them in that order");
        }
        return paired.isEmpty() ? ExitCodes.INVALID : ExitCodes.OK;
    }
}
