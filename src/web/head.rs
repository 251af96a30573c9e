//! `HEAD` is answered like `GET` without a body (link checkers and monitoring use it).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;

/// Middleware: a `HEAD` request is routed as `GET`; the HTTP layer remembers it was `HEAD`
/// and sends the headers only. The live event stream is left out (it never ends).
pub async fn as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if req.method() == Method::HEAD && !req.path().ends_with("/events") {
        req.head_mut().method = Method::GET;
    }
    next.call(req).await
}
