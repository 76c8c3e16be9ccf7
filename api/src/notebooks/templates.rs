//! The template projects `POST /v1/projects/ludisproject` makes (spec 001 §7 "template projects
//! with notebooks"): notebooks written for Ludis over the sample datasets every organization has
//! (`seeds/notebooks/`, `seeds/datasets/`).

use crate::samples::SAMPLES;

/// One notebook of a template: its file, name and description.
pub struct TemplateNotebook {
    pub file: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub content: &'static str,
}

/// A template project.
pub struct ProjectTemplate {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    /// The slug of the sample dataset its notebooks read (`samples::SAMPLES`).
    pub sample: &'static str,
    pub notebooks: &'static [TemplateNotebook],
}

pub const TEMPLATES: [ProjectTemplate; 2] = [
    ProjectTemplate {
        id: "retail-sales",
        name: "Retail sales analysis",
        description: "Explore ten weeks of sales of six products in four stores: revenue by category, product and store, and weekly revenue per store.",
        sample: "retail-sales",
        notebooks: &[
            TemplateNotebook {
                file: "01-explore-sales.ipynb",
                name: "Explore sales",
                description: "Revenue by category, product and store.",
                content: include_str!("../../../seeds/notebooks/retail-sales/01-explore-sales.ipynb"),
            },
            TemplateNotebook {
                file: "02-weekly-revenue.ipynb",
                name: "Weekly revenue",
                description: "Weekly revenue per store, drawn, and its week-over-week change.",
                content: include_str!("../../../seeds/notebooks/retail-sales/02-weekly-revenue.ipynb"),
            },
        ],
    },
    ProjectTemplate {
        id: "city-weather",
        name: "City weather trends",
        description: "Daily temperatures, rain and wind of a few cities: a summary per city and the 7-day trend of the daily maximum.",
        sample: "city-weather",
        notebooks: &[TemplateNotebook {
            file: "01-temperature-trends.ipynb",
            name: "Temperature trends",
            description: "A summary per city and the 7-day trend of the daily maximum.",
            content: include_str!("../../../seeds/notebooks/city-weather/01-temperature-trends.ipynb"),
        }],
    },
];

/// The template with id `id`.
pub fn by_id(id: &str) -> Option<&'static ProjectTemplate> {
    TEMPLATES.iter().find(|t| t.id == id.trim())
}

/// The name of the sample dataset a template reads.
pub fn sample_name(t: &ProjectTemplate) -> &'static str {
    SAMPLES
        .iter()
        .find(|s| s.slug == t.sample)
        .map(|s| s.name)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_notebook_is_a_notebook_reading_a_known_sample() {
        for t in &TEMPLATES {
            assert!(!sample_name(t).is_empty(), "{}", t.id);
            assert!(by_id(t.id).is_some());
            for n in t.notebooks {
                super::super::ipynb::parse(n.content).unwrap_or_else(|e| panic!("{}: {e}", n.file));
                assert_eq!(super::super::ipynb::file_name(n.file, &[]), n.file);
            }
        }
        assert!(by_id("nope").is_none());
    }
}
