package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The receiving report of reconciliation in the campaign's status (issue 38): bounded like the rest of it, whatever
 * the number of passes or queued keys. The last {@link #MAX_PASSES_SHOWN} passes, the totals over all of them, the
 * queue's count with up to {@link #MAX_QUEUE_SAMPLE} keys (each at most {@link #MAX_KEY_TEXT} characters), the anchor
 * an incremental sync starts from and the pass it comes from, and whether the table has caught up. The ledger holds
 * every pass and every key.
 */
@JsonPropertyOrder({"mode", "passCount", "upserted", "deleted", "queuedByPasses", "passes", "queue", "queueSample",
        "syncAnchor", "syncAnchorFromPass", "caughtUp"})
public class ReconciliationStatus {
    public static final int MAX_PASSES_SHOWN = 5;
    public static final int MAX_QUEUE_SAMPLE = 10;
    public static final int MAX_KEY_TEXT = 128;

    private String mode;
    private Integer passCount;
    private Long upserted;
    private Long deleted;
    private Long queuedByPasses;
    private List<Pass> passes = new ArrayList<>();
    private Long queue;
    private List<String> queueSample = new ArrayList<>();
    private String syncAnchor;
    private Integer syncAnchorFromPass;
    private Boolean caughtUp;

    /** One pass: its anchors and what it wrote. */
    @JsonPropertyOrder({"pass", "sinceAnchor", "anchor", "finished", "upserted", "deleted", "queued", "keyDigestsEqual"})
    public static class Pass {
        private Integer pass;
        private String sinceAnchor;
        private String anchor;
        private Boolean finished;
        private Long upserted;
        private Long deleted;
        private Long queued;
        private Boolean keyDigestsEqual;

        public Pass() {
        }

        public Pass(int pass, String sinceAnchor, String anchor, boolean finished, long upserted, long deleted, long queued,
                    boolean keyDigestsEqual) {
            this.pass = pass;
            this.sinceAnchor = sinceAnchor;
            this.anchor = anchor;
            this.finished = finished;
            this.upserted = upserted;
            this.deleted = deleted;
            this.queued = queued;
            this.keyDigestsEqual = keyDigestsEqual;
        }

        public Integer getPass() {
            return pass;
        }

        public void setPass(Integer pass) {
            this.pass = pass;
        }

        public String getSinceAnchor() {
            return sinceAnchor;
        }

        public void setSinceAnchor(String sinceAnchor) {
            this.sinceAnchor = sinceAnchor;
        }

        public String getAnchor() {
            return anchor;
        }

        public void setAnchor(String anchor) {
            this.anchor = anchor;
        }

        public Boolean getFinished() {
            return finished;
        }

        public void setFinished(Boolean finished) {
            this.finished = finished;
        }

        public Long getUpserted() {
            return upserted;
        }

        public void setUpserted(Long upserted) {
            this.upserted = upserted;
        }

        public Long getDeleted() {
            return deleted;
        }

        public void setDeleted(Long deleted) {
            this.deleted = deleted;
        }

        public Long getQueued() {
            return queued;
        }

        public void setQueued(Long queued) {
            this.queued = queued;
        }

        public Boolean getKeyDigestsEqual() {
            return keyDigestsEqual;
        }

        public void setKeyDigestsEqual(Boolean keyDigestsEqual) {
            this.keyDigestsEqual = keyDigestsEqual;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Pass p && Objects.equals(pass, p.pass) && Objects.equals(sinceAnchor, p.sinceAnchor)
                    && Objects.equals(anchor, p.anchor) && Objects.equals(finished, p.finished)
                    && Objects.equals(upserted, p.upserted) && Objects.equals(deleted, p.deleted)
                    && Objects.equals(queued, p.queued) && Objects.equals(keyDigestsEqual, p.keyDigestsEqual);
        }

        @Override
        public int hashCode() {
            return Objects.hash(pass, sinceAnchor, anchor, finished, upserted, deleted, queued, keyDigestsEqual);
        }
    }

    /** A queued key's text as the status shows it: cut to {@link #MAX_KEY_TEXT} characters. */
    public static String boundedKey(String key) {
        return key.length() <= MAX_KEY_TEXT ? key : key.substring(0, MAX_KEY_TEXT - 3) + "...";
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public Integer getPassCount() {
        return passCount;
    }

    public void setPassCount(Integer passCount) {
        this.passCount = passCount;
    }

    public Long getUpserted() {
        return upserted;
    }

    public void setUpserted(Long upserted) {
        this.upserted = upserted;
    }

    public Long getDeleted() {
        return deleted;
    }

    public void setDeleted(Long deleted) {
        this.deleted = deleted;
    }

    public Long getQueuedByPasses() {
        return queuedByPasses;
    }

    public void setQueuedByPasses(Long queuedByPasses) {
        this.queuedByPasses = queuedByPasses;
    }

    public List<Pass> getPasses() {
        return passes;
    }

    public void setPasses(List<Pass> passes) {
        this.passes = passes;
    }

    public Long getQueue() {
        return queue;
    }

    public void setQueue(Long queue) {
        this.queue = queue;
    }

    public List<String> getQueueSample() {
        return queueSample;
    }

    public void setQueueSample(List<String> queueSample) {
        this.queueSample = queueSample;
    }

    public String getSyncAnchor() {
        return syncAnchor;
    }

    public void setSyncAnchor(String syncAnchor) {
        this.syncAnchor = syncAnchor;
    }

    public Integer getSyncAnchorFromPass() {
        return syncAnchorFromPass;
    }

    public void setSyncAnchorFromPass(Integer syncAnchorFromPass) {
        this.syncAnchorFromPass = syncAnchorFromPass;
    }

    public Boolean getCaughtUp() {
        return caughtUp;
    }

    public void setCaughtUp(Boolean caughtUp) {
        this.caughtUp = caughtUp;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReconciliationStatus r && Objects.equals(mode, r.mode) && Objects.equals(passCount, r.passCount)
                && Objects.equals(upserted, r.upserted) && Objects.equals(deleted, r.deleted)
                && Objects.equals(queuedByPasses, r.queuedByPasses) && Objects.equals(passes, r.passes)
                && Objects.equals(queue, r.queue) && Objects.equals(queueSample, r.queueSample)
                && Objects.equals(syncAnchor, r.syncAnchor) && Objects.equals(syncAnchorFromPass, r.syncAnchorFromPass)
                && Objects.equals(caughtUp, r.caughtUp);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, passCount, upserted, deleted, queuedByPasses, passes, queue, queueSample, syncAnchor,
                syncAnchorFromPass, caughtUp);
    }
}
