//! Any sequence of events told to the call machine, whatever it waits for:
//! never a panic; no attempt beyond what the retries allow; no credential
//! in what the hooks see of an attempt or of a response echoing it; and a
//! call that ends gives back the answer it was told, or an error.
#![no_main]
use libfuzzer_sys::fuzz_target;
use user_management_client::__private::headers::Resolved;
use user_management_client::__private::retry::Judged;
use user_management_client::__private::{Call, HookSet, Input, Outcome, Output, Plan};
use user_management_client::{Error, ErrorKind, Operation, ParamsIn, ResponseAction};

/// A token with `+ / =`, longer than 64 characters.
const TOKEN: &str = "tok+en/with=signs_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP";

/// What the fuzzer's driver keeps of an attempt: the byte that made a good
/// answer, or the error.
#[derive(Debug)]
struct Answer(Result<u8, Error>);

impl From<Error> for Answer {
    fn from(error: Error) -> Answer {
        Answer(Err(error))
    }
}

fn headers(byte: u8) -> Vec<(String, String)> {
    let pick = |bits: u8| match bits & 3 {
        0 => ("Authorization".to_string(), format!("Bearer {TOKEN}")),
        1 => ("x-api-key".to_string(), TOKEN.to_string()),
        2 => ("x-plain".to_string(), "v".to_string()),
        _ => ("x-bad".to_string(), "a\nb".to_string()),
    };
    (0..(byte >> 6)).map(|i| pick(byte >> (2 * i))).collect()
}

fn event(kind: u8, byte: u8) -> Input<Answer> {
    let error = |byte: u8| {
        let kinds = [
            ErrorKind::Network,
            ErrorKind::Timeout,
            ErrorKind::Http,
            ErrorKind::Api,
            ErrorKind::Aborted,
        ];
        let status = 400 + u16::from(byte);
        Error::new(kinds[usize::from(byte % 5)], "failed").with_http_status(status)
    };
    let action = if byte & 1 == 0 {
        ResponseAction::Keep
    } else {
        ResponseAction::Retry
    };
    match kind % 8 {
        0 => Input::Provided(headers(byte)),
        1 => Input::BeforeRequest(headers(byte)),
        2 => Input::Settled {
            answer: Answer(Ok(byte)),
            outcome: Outcome::Good,
            action,
        },
        3 => Input::Settled {
            answer: Answer(Err(error(byte))),
            outcome: Outcome::Final,
            action,
        },
        4 => {
            let error = error(byte);
            let retry_after = (byte & 2 != 0).then(|| (byte >> 2).to_string());
            Input::Settled {
                outcome: Outcome::Failed {
                    judged: Judged::of(&error),
                    retry_after,
                },
                answer: Answer(Err(error)),
                action,
            }
        }
        5 => Input::Drawn {
            random: f64::from(byte) / 256.0,
            date_ms: f64::from(byte) * 1e10,
        },
        6 if byte & 1 == 0 => Input::RetryHookDone,
        6 => Input::Paused,
        _ => Input::End(Answer(Ok(byte))),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&setup, events)) = data.split_first() else {
        return;
    };
    let client_headers = vec![("x-client".to_string(), "c".to_string())];
    let prepared = Resolved::new(&client_headers, &[], &[], ParamsIn::Body);
    let provider = setup & 1 != 0;
    let hooks = setup & 2 != 0;
    let retries = u32::from(setup >> 5);
    let plan = Plan {
        operation: Operation::Count,
        url: "http://api.test/api/users/count",
        client_headers: &client_headers,
        call_headers: &[],
        prepared: (!provider).then_some(&prepared),
        providers: [provider, setup & 4 != 0],
        hooks: HookSet {
            before_request: hooks,
            after_response: hooks,
            before_retry: hooks,
        },
        params_in: ParamsIn::Body,
        retries,
    };
    let mut call = Call::new();
    let mut told = Vec::new();
    let mut attempts = 0;
    for pair in events.chunks(2) {
        let (kind, byte) = (pair[0], pair.get(1).copied().unwrap_or(0));
        let sending = match call.poll_output(&plan) {
            Output::Send(attempt) => {
                assert!(attempt.resend_count <= retries);
                true
            }
            Output::BeforeRequest(info) => {
                assert!(info
                    .headers
                    .iter()
                    .all(|(_, value)| !value.contains("tok+en")));
                false
            }
            _ => false,
        };
        let echoed = [("x-echo".to_string(), TOKEN.to_string())];
        if let Some(info) = call.response_info(200, &echoed, Default::default()) {
            let sent = call.secrets().iter().any(|secret| secret == TOKEN);
            let shown = info
                .response_headers
                .iter()
                .any(|(_, v)| v.contains("tok+en"));
            assert!(!(sent && shown), "{:?}", info.response_headers);
        }
        let input = event(kind, byte);
        // An attempt's outcome the machine takes: one attempt made.
        if sending && matches!(input, Input::Settled { .. }) {
            attempts += 1;
            assert!(
                attempts <= retries + 1,
                "{attempts} attempts for {retries} retries"
            );
        }
        if let Input::Settled {
            answer: Answer(Ok(byte)),
            ..
        }
        | Input::End(Answer(Ok(byte))) = &input
        {
            told.push(*byte);
        }
        call.handle_input(&plan, input);
    }
    if let Answer(Ok(byte)) = call.finish() {
        assert!(told.contains(&byte), "{byte} was never told");
    }
});
