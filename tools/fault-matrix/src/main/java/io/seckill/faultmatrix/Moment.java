package io.seckill.faultmatrix;

/** When in a row's sale its fault is injected, by the share of the row's buyers answered by then. */
public enum Moment {
    /** A twentieth of the buyers answered: the burst has barely begun, every service still cold. */
    FIRST_SECOND("in the first second", 0.05),
    /** A tenth answered: the last units are being won, most of the winners' orders still in flight. */
    TAIL("at the tail", 0.1);

    private final String label;
    private final double answeredShare;

    Moment(String label, double answeredShare) {
        this.label = label;
        this.answeredShare = answeredShare;
    }

    String label() {
        return label;
    }

    double answeredShare() {
        return answeredShare;
    }
}
