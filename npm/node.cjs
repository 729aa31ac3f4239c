// Node.js, CommonJS: wasm-bindgen's nodejs target, which loads its .wasm
// synchronously on require. It is a second instance beside the ES module
// one, with its own UsersApiError class: use one module system per process
// for `instanceof` to hold across your code.
"use strict";
const { countUsers, listUsers, UsersClient } = require("./node/user_management_client.js");
const { UsersApiError } = require("./node/__SNIPPET__");

module.exports = { countUsers, listUsers, UsersClient, UsersApiError };
