//! The call loop of the component, for as long as the library's own client
//! loop (`UsersClient`) runs only on the fetch transport. TO BE REPLACED by
//! `UsersClient::count_users` / `list_users` once that loop takes the WASI
//! transport: it restates no rule, each step below calls the library's
//! (options and params checks, the request's headers, judging the answer,
//! when and how long to retry, redaction).

use serde::Serialize;
use serde_json::Value as Json;
use user_management_client::binding::headers::Resolved;
use user_management_client::binding::options::{check_base_url, check_headers, duration_ms, join};
use user_management_client::binding::params::check_list_params;
use user_management_client::binding::value::quoted;
use user_management_client::binding::{redacted, retry, wasi};
use user_management_client::{
    ClientOptions, Count, CountParams, Envelope, Error, ErrorKind, ListParams, Operation, ParamsIn,
};

/// `POST {baseUrl}/api/users/count`.
pub fn count(options: &ClientOptions, params: &CountParams) -> Result<Envelope<Count>, Error> {
    let (body, _) = run(Operation::Count, options, params)?;
    // The answer passed the count's checks: `status` is 200 and
    // `result.totalUsers` a whole number from 0 to 2^53 - 1.
    let number = |value: Option<&Json>| value.and_then(Json::as_f64);
    let total = number(
        body.get("result")
            .and_then(|result| result.get("totalUsers")),
    );
    match (number(body.get("status")), total) {
        (Some(status), Some(total)) => Ok(Envelope {
            status: status as i64,
            result: Count {
                total_users: total as u64,
            },
        }),
        _ => Err(Error::new(
            ErrorKind::Decode,
            "the result does not fit the requested type",
        )
        .with_status(Some(200))),
    }
}

/// `POST {baseUrl}/api/users`: the envelope's JSON text as it came.
pub fn list(options: &ClientOptions, params: &ListParams) -> Result<String, Error> {
    check_list_params(params)?;
    run(Operation::List, options, params).map(|(_, text)| text)
}

/// Checks the options, builds the request once, then runs attempts until
/// one answers well, fails for good, or the retries are spent. Errors leave
/// with the call's credentials cut out.
fn run<P: Serialize>(
    operation: Operation,
    options: &ClientOptions,
    params: &P,
) -> Result<(Json, String), Error> {
    let base = &options.base_url;
    check_base_url(base)?;
    check_headers(&options.headers)?;
    let href = wasi::href(base).map_err(|cause| {
        Error::invalid("baseUrl", "a valid absolute URL", &quoted(base)).with_source(cause)
    })?;
    let url = join(&href, operation.path());
    let body = serde_json::to_vec(params)
        .map_err(|error| Error::validation("params", error.to_string()))?;
    let Resolved {
        list: headers,
        secrets,
    } = Resolved::new(&options.headers, &[], &[], ParamsIn::Body);
    let timeout_ms = duration_ms(options.timeout);
    let mut retries_done = 0;
    loop {
        let (failed, retry_after) = match wasi::attempt(&url, &headers, &body, timeout_ms) {
            Ok(answer) => {
                let retry_after = answer.retry_after.clone();
                match wasi::judge(answer, operation) {
                    Ok(done) => return Ok(done),
                    Err(error) => (error, retry_after),
                }
            }
            Err(error) => (error, None),
        };
        let Some(delay) = retry::next_delay(
            &failed,
            retries_done,
            options.retries,
            wasi::random(),
            retry_after.as_deref(),
            wasi::now_ms(),
        ) else {
            return Err(redacted(failed, &secrets));
        };
        retries_done += 1;
        wasi::sleep_ms(delay);
    }
}
