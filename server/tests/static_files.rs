//! The static folders: nothing outside them, no dotfiles, no redirect out of
//! `/pkg`, `nosniff` and a Content-Security-Policy on every answer, and the
//! right types for what the package ships.

mod common;

use common::Server;

/// A folder beside `www/` and `pkg/` with a file that must never be served.
fn outside(server: &Server) -> std::path::PathBuf {
    let dir = server.dir().join("outside");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("secret.txt"), "top secret").unwrap();
    dir
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_folder_are_404s() {
    use std::os::unix::fs::symlink;
    let server = Server::start();
    let outside = outside(&server);
    let www = server.dir().join("www");
    let pkg = server.dir().join("pkg");
    symlink(&outside, www.join("outdir")).unwrap();
    symlink(outside.join("secret.txt"), www.join("secret.txt")).unwrap();
    symlink(&outside, pkg.join("outdir")).unwrap();
    symlink("/etc", www.join("etcdir")).unwrap();
    for path in [
        "/outdir/secret.txt",
        "/secret.txt",
        "/pkg/outdir/secret.txt",
        "/etcdir/passwd",
        "/etcdir/hostname",
    ] {
        let response = server.request("GET", path, &[], b"");
        response.assert_error(404, "no route");
        assert!(
            !String::from_utf8_lossy(&response.body).contains("top secret"),
            "{path}"
        );
    }
    // A symlink that stays inside is served.
    std::fs::write(www.join("real.txt"), "inside").unwrap();
    symlink(www.join("real.txt"), www.join("alias.txt")).unwrap();
    let alias = server.request("GET", "/alias.txt", &[], b"");
    assert_eq!(alias.status, 200);
    assert_eq!(alias.body, b"inside");
}

#[test]
fn dotfiles_and_dot_folders_are_404s() {
    let server = Server::start();
    let www = server.dir().join("www");
    std::fs::write(www.join(".env"), "SECRET=1").unwrap();
    std::fs::create_dir_all(www.join(".git")).unwrap();
    std::fs::write(www.join(".git/config"), "[core]").unwrap();
    std::fs::write(server.dir().join("pkg/.npmrc"), "token").unwrap();
    for path in ["/.env", "/.git/config", "/%2eenv", "/pkg/.npmrc", "/.git/"] {
        server
            .request("GET", path, &[], b"")
            .assert_error(404, "no route");
    }
}

#[test]
fn folders_without_a_slash_are_404s_not_redirects() {
    let server = Server::start();
    let pkg = server.dir().join("pkg");
    std::fs::create_dir_all(pkg.join("web")).unwrap();
    std::fs::write(pkg.join("web/x.js"), "export {};\n").unwrap();
    let response = server.request("GET", "/pkg/web", &[], b"");
    assert_eq!(response.header("location"), None);
    response.assert_error(404, "no route");
    assert_eq!(server.request("GET", "/pkg/web/x.js", &[], b"").status, 200);
}

#[test]
fn every_answer_says_nosniff_and_has_a_policy() {
    let server = Server::start();
    std::fs::write(
        server.dir().join("www/evil.svg"),
        r#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#,
    )
    .unwrap();
    let answers = [
        server.request("GET", "/", &[], b""),
        server.request("GET", "/evil.svg", &[], b""),
        server.request("GET", "/pkg/x.wasm", &[], b""),
        server.request("GET", "/pkg/x.js", &[], b""),
        server.request("GET", "/openapi.json", &[], b""),
        server.post_json("/api/users/count", "{}"),
        server.post_json("/api/users/count", "{"),
        server.request("GET", "/missing", &[], b""),
        server.request(
            "OPTIONS",
            "/api/users",
            &[
                ("Origin", "http://127.0.0.1:3000"),
                ("Access-Control-Request-Method", "POST"),
            ],
            b"",
        ),
    ];
    for (i, answer) in answers.iter().enumerate() {
        assert_eq!(
            answer.header("x-content-type-options"),
            Some("nosniff"),
            "answer {i}: {:?}",
            answer.headers
        );
        let csp = answer
            .header("content-security-policy")
            .unwrap_or_else(|| panic!("answer {i} has no policy: {:?}", answer.headers));
        if i == 0 {
            assert!(
                csp.contains("script-src 'self' 'wasm-unsafe-eval'"),
                "{csp}"
            );
        } else {
            assert_eq!(csp, "default-src 'none'", "answer {i}");
        }
    }
}

#[test]
fn package_files_have_their_types() {
    let server = Server::start();
    let pkg = server.dir().join("pkg");
    std::fs::write(pkg.join("x.d.ts"), "export declare const x: 1;\n").unwrap();
    std::fs::write(pkg.join("x.js.map"), "{}").unwrap();
    std::fs::write(pkg.join("package.json"), "{}").unwrap();
    for (path, expected) in [
        ("/pkg/x.d.ts", "text/plain; charset=utf-8"),
        ("/pkg/x.js.map", "application/json"),
        ("/pkg/package.json", "application/json"),
        ("/pkg/x.wasm", "application/wasm"),
        ("/pkg/x.js", "text/javascript"),
    ] {
        let response = server.request("GET", path, &[], b"");
        assert_eq!(response.status, 200, "{path}");
        assert_eq!(response.header("content-type"), Some(expected), "{path}");
    }
}
