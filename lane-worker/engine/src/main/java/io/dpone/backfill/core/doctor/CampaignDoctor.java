package io.dpone.backfill.core.doctor;

/** The pre-flight checks of one campaign against its databases: reads catalogs, creates and changes nothing. */
@FunctionalInterface
public interface CampaignDoctor {
    DoctorReport check();
}
