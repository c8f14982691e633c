package io.dpone.backfill.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connectors are peers (design card section 2, ADR 0051): what a source and a target know of each other is the SPI
 * ({@code io.dpone.backfill.source}, {@code io.dpone.backfill.targets}); a connector imports no other database's
 * packages, a target package imports no source package of another database, a source package imports no target
 * package at all; and outside its connector a database's packages are imported only by the registry
 * ({@code Connectors}), which chooses sources and targets alike. PostgreSQL's source and target are one connector,
 * so its target may use its source's PostgreSQL-only parts (binary COPY, catalog reads, the source checks).
 *
 * <p>{@link #STILL_IMPORTING_A_DATABASE} lists the classes outside a connector that still import one, temporarily
 * (issue 37): it only shrinks, a class not listed fails, and so does a listed class that no longer imports one.
 */
class ConnectorPeersTest {
    /** Each database's packages, which its connector module holds. */
    private static final Map<String, List<String>> DATABASES = Map.of(
            "postgres", List.of("io.dpone.backfill.postgres", "io.dpone.backfill.source.postgres",
                    "io.dpone.backfill.targets.postgres"),
            "mssql", List.of("io.dpone.backfill.targets.mssql"));
    private static final String SOURCE_PACKAGES = "io.dpone.backfill.source.";
    private static final String TARGET_PACKAGES = "io.dpone.backfill.targets.";
    private static final String REGISTRY = "io.dpone.backfill.wiring.Connectors";

    /** Issue 37: each to reach its database through the registry and the SPI, or to move into the connector. */
    private static final Set<String> STILL_IMPORTING_A_DATABASE = Set.of(
            // The benchmark measures the PostgreSQL reader and both targets' loaders directly, without a campaign.
            "io.dpone.backfill.cli.bench.BenchSource",
            "io.dpone.backfill.cli.bench.PostgresBenchTarget",
            "io.dpone.backfill.cli.bench.SourceReads",
            "io.dpone.backfill.cli.bench.SqlServerBenchTarget",
            // Scratch copies, demo data and their checks write their own SQL per database: quoting and DDL.
            "io.dpone.backfill.cli.certify.CertifyScratch",
            "io.dpone.backfill.cli.certify.TargetDialect",
            "io.dpone.backfill.cli.demo.DemoData",
            "io.dpone.backfill.cli.demo.DemoVerification",
            "io.dpone.backfill.cli.scratch.ScratchSchema");

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModulesProductionClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.dpone.backfill");
    }

    @Test
    void everyConnectorAndTheRegistryAreOnTheClassPath() {
        for (String type : Set.of(REGISTRY, "io.dpone.backfill.source.postgres.PostgresSourceAdapter",
                "io.dpone.backfill.targets.postgres.PostgresTargetAdapter", "io.dpone.backfill.targets.mssql.MssqlTargetAdapter",
                "io.dpone.backfill.operator.reconciler.BackfillCampaignReconciler", "io.dpone.backfill.cli.BackfillCli")) {
            assertThat(classes.contain(type)).as(type + " imported").isTrue();
        }
    }

    @Test
    void aConnectorImportsNoOtherDatabasesPackages() {
        Map<String, Set<String>> crossing = new TreeMap<>();
        for (JavaClass type : classes) {
            String own = database(type.getPackageName());
            if (own == null) {
                continue;
            }
            type.getDirectDependenciesFromSelf().forEach(d -> {
                String other = database(d.getTargetClass().getPackageName());
                if (other != null && !other.equals(own)) {
                    crossing.computeIfAbsent(topLevel(type.getName()), k -> new TreeSet<>()).add(d.getTargetClass().getName());
                }
            });
        }
        assertThat(crossing).as("connector classes importing another database's connector").isEmpty();
    }

    @Test
    void aSourceImportsNoTargetConnectorAndATargetNoOtherDatabasesSource() {
        Map<String, Set<String>> crossing = new TreeMap<>();
        for (JavaClass type : classes) {
            String from = type.getPackageName();
            type.getDirectDependenciesFromSelf().forEach(d -> {
                String to = d.getTargetClass().getPackageName();
                boolean sourceToTarget = connectorPackage(from, SOURCE_PACKAGES) && connectorPackage(to, TARGET_PACKAGES);
                boolean targetToForeignSource = connectorPackage(from, TARGET_PACKAGES) && connectorPackage(to, SOURCE_PACKAGES)
                        && !database(from).equals(database(to));
                if (sourceToTarget || targetToForeignSource) {
                    crossing.computeIfAbsent(topLevel(type.getName()), k -> new TreeSet<>()).add(d.getTargetClass().getName());
                }
            });
        }
        assertThat(crossing).isEmpty();
    }

    @Test
    void outsideItsConnectorOnlyTheRegistryImportsADatabase() {
        Map<String, Set<String>> importing = classesImportingADatabase();
        Set<String> unlisted = new TreeSet<>(importing.keySet());
        unlisted.removeAll(STILL_IMPORTING_A_DATABASE);
        assertThat(unlisted)
                .as("classes outside a connector that import it (ask the registry for the adapter and use the SPI): %s",
                        importing)
                .isEmpty();
    }

    @Test
    void theListOfClassesStillImportingADatabaseOnlyShrinks() {
        Set<String> fixed = new TreeSet<>(STILL_IMPORTING_A_DATABASE);
        fixed.removeAll(classesImportingADatabase().keySet());
        assertThat(fixed).as("listed in STILL_IMPORTING_A_DATABASE but no longer importing one: remove them from the list")
                .isEmpty();
    }

    /** Top-level class outside every connector (the registry aside) to the connector classes it imports. */
    private static Map<String, Set<String>> classesImportingADatabase() {
        Map<String, Set<String>> importing = new TreeMap<>();
        for (JavaClass type : classes) {
            String owner = topLevel(type.getName());
            if (owner.equals(REGISTRY) || database(type.getPackageName()) != null) {
                continue;
            }
            type.getDirectDependenciesFromSelf().forEach(d -> {
                if (database(d.getTargetClass().getPackageName()) != null) {
                    importing.computeIfAbsent(owner, k -> new TreeSet<>()).add(d.getTargetClass().getName());
                }
            });
        }
        return importing;
    }

    /** The database whose connector holds {@code packageName}, or null. */
    private static String database(String packageName) {
        for (Map.Entry<String, List<String>> database : DATABASES.entrySet()) {
            for (String root : database.getValue()) {
                if (packageName.equals(root) || packageName.startsWith(root + ".")) {
                    return database.getKey();
                }
            }
        }
        return null;
    }

    /** A connector's own source or target package (below the SPI's {@code source} or {@code target} package). */
    private static boolean connectorPackage(String packageName, String roleRoot) {
        return packageName.startsWith(roleRoot) && database(packageName) != null;
    }

    private static String topLevel(String className) {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }
}
