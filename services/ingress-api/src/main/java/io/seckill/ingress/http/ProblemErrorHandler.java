package io.seckill.ingress.http;

import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Requests Jetty refuses before Javalin sees them (a control character in a header, an over-long URI
 * or header block) get problem+json too, not Jetty's HTML page.
 */
public final class ProblemErrorHandler extends ErrorHandler {

    @Override
    protected void generateResponse(Request request, Response response, int status, String message, Throwable cause,
                                    Callback callback) throws IOException {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Json.PROBLEM_JSON);
        String path = request.getHttpURI().getPath();
        // Jetty reports a request it could not parse under a made-up path; that is no instance.
        response.write(
                true, ByteBuffer.wrap(body(status, message, "/badMessage".equals(path) ? null : path)), callback);
    }

    private static byte[] body(int status, String reason, String path) {
        ErrorCode code = ErrorCode.forHttpStatus(status);
        return Json.write(ProblemBody.of(new Problem(code, reason == null ? code.title() : reason), path));
    }
}
