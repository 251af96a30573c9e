//! Jassturnier: the tournament office application for Swiss Jass tournaments.

pub mod app;
pub mod build_info;
pub mod cli;
pub mod config;
pub mod db;
pub mod demo;
pub mod desktop;
pub mod domain;
pub mod handbook;
pub mod pdf;
pub mod startup;
pub mod web;
