package io.seckill.buyeraccess.passes;

import io.seckill.schemas.pass.ProofOfWork;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Solves a proof-of-work challenge as a buyer's browser would, for the walk-through and scripts:
 * {@code bin/seckill solve-challenge CHALLENGE} prints the solution to post for a pass.
 */
@Command(
        name = "solve-challenge",
        mixinStandardHelpOptions = true,
        description = "Prints a solution to a sale-pass challenge (the \"challenge\" of POST"
                + " /api/v1/skus/{skuId}/pass-challenges).")
public final class SolveChallengeCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "CHALLENGE", description = "the challenge as issued")
    String challenge;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try {
            spec.commandLine()
                    .getOut()
                    .println(ProofOfWork.solve(challenge, ProofOfWorkChallenges.difficultyOf(challenge)));
            return 0;
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SolveChallengeCommand()).execute(args));
    }
}
