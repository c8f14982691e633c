package io.dpone.backfill.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * src-docs/architecture.md section 2 for the SQL Server target: it never uses another target's package, nor the
 * domain it.
 */
class MssqlAdapterArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.dpone.backfill");

    @Test
    void theSqlServerTargetUsesNoPostgresTargetPackage() {
        // io.dpone.backfill.postgres still mixes the PostgreSQL source and target; the SQL Server target uses neither.
        noClasses().that().resideInAPackage("io.dpone.backfill.targets.mssql..")
                .should().dependOnClassesThat().resideInAnyPackage("io.dpone.backfill.targets.postgres..",
                        "io.dpone.backfill.postgres..", "org.postgresql..")
                .check(CLASSES);
    }

    @Test
    void theDomainDoesNotKnowTheSqlServerTarget() {
        noClasses().that().resideInAPackage("io.dpone.backfill.core..")
                .should().dependOnClassesThat().resideInAPackage("io.dpone.backfill.targets.mssql..")
                .check(CLASSES);
    }
}
