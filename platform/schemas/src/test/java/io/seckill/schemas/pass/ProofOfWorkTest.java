package io.seckill.schemas.pass;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProofOfWorkTest {

    @Test
    void leadingZeroBitsAreCountedAcrossBytes() {
        assertThat(ProofOfWork.leadingZeroBits(new byte[] {(byte) 0x80, 0})).isZero();
        assertThat(ProofOfWork.leadingZeroBits(new byte[] {0x01, 0})).isEqualTo(7);
        assertThat(ProofOfWork.leadingZeroBits(new byte[] {0, 0x10})).isEqualTo(11);
        assertThat(ProofOfWork.leadingZeroBits(new byte[] {0, 0})).isEqualTo(16);
    }

    @Test
    void aFoundSolutionSolvesItsChallengeAndNoOther() {
        String solution = ProofOfWork.solve("c1.42.1700000000000.12.nonce.signature", 12);
        assertThat(ProofOfWork.solves("c1.42.1700000000000.12.nonce.signature", solution, 12)).isTrue();
        assertThat(ProofOfWork.solves("c1.42.1700000000000.12.other.signature", solution, 12))
                .as("one chance in 4096 that it solves another by luck; this one does not").isFalse();
    }

    @Test
    void wrongEmptyAndOverlongSolutionsFail() {
        int failing = 0;
        for (int i = 0; i < 100; i++) {
            if (!ProofOfWork.solves("challenge", "guess-" + i, 16)) {
                failing++;
            }
        }
        assertThat(failing).as("a guess solves 16 bits once in 65,536 tries").isGreaterThanOrEqualTo(99);
        assertThat(ProofOfWork.solves("challenge", "", 0)).isFalse();
        assertThat(ProofOfWork.solves("challenge", null, 0)).isFalse();
        assertThat(ProofOfWork.solves("challenge", "9".repeat(ProofOfWork.MAX_SOLUTION_LENGTH + 1), 0)).isFalse();
        assertThat(ProofOfWork.solves("challenge", "anything", 0)).isTrue();
    }
}
